import { and, eq } from 'drizzle-orm';
import type { AlertRule } from '@fleet/shared/schemas/alert';
import type { Executor } from '../../db/client.ts';
import { alertRules } from '../../db/schema/alerts.ts';
import { groups, savedViews, sites } from '../../db/schema.ts';
import { HttpError, invalidField, notFound } from '../../lib/http-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';

/** An alert's or rule's id: anything else is simply not found. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The entity's rule by id, locked for a change; another entity's or a malformed id is 404. */
export async function findRule(db: Executor, entity: string, id: string) {
  if (!UUID.test(id)) throw notFound('Alert rule');
  const [row] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.id, id), eq(alertRules.entity, entity)))
    .for('update');
  if (!row) throw notFound('Alert rule');
  return row;
}

/**
 * A site or group scope must name one of the entity's own, a view scope one of its shared saved
 * views (400 on the field otherwise).
 */
export async function assertScopeExists(db: Executor, entity: string, rule: Pick<AlertRule, 'scope' | 'scope_name'>) {
  if (rule.scope === 'entity' || rule.scope_name === null) return;
  if (rule.scope === 'view') {
    const [view] = await db
      .select({ name: savedViews.name })
      .from(savedViews)
      .where(and(eq(savedViews.entity, entity), eq(savedViews.name, rule.scope_name), eq(savedViews.shared, true)));
    if (!view) throw invalidField('document.scope_name', `No shared saved view named "${rule.scope_name}"`);
    return;
  }
  const table = rule.scope === 'site' ? sites : groups;
  const [found] = await db
    .select({ name: table.name })
    .from(table)
    .where(and(eq(table.entity, entity), eq(table.name, rule.scope_name)));
  if (!found) throw invalidField('document.scope_name', `No ${rule.scope} named "${rule.scope_name}"`);
}

/** Maps a taken rule name to 409 on the name field. */
export function nameTaken(err: unknown): never {
  if (!isUniqueViolation(err)) throw err;
  const message = 'A rule with this name already exists';
  throw new HttpError(409, message, 'Alert rule name taken', { 'document.name': [message] });
}
