import type { AlertRule } from '@fleet/shared/schemas/alert';
import type { alertRules } from '../../db/schema/alerts.ts';

/** A rule row as the API answers it. */
export function presentRule(row: typeof alertRules.$inferSelect): AlertRule {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}
