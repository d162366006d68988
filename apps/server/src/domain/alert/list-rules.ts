import { asc, eq } from 'drizzle-orm';
import type { AlertRule } from '@fleet/shared/schemas/alert';
import type { Db } from '../../db/client.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import { presentRule } from './present-rule.ts';

/** The entity's alert rules by name. */
export async function listRules(db: Db, entity: string): Promise<{ data: AlertRule[]; total: number }> {
  const rows = await db.select().from(alertRules).where(eq(alertRules.entity, entity)).orderBy(asc(alertRules.name));
  return { data: rows.map(presentRule), total: rows.length };
}
