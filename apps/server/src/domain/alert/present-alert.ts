import { sql } from 'drizzle-orm';
import type { Alert } from '@fleet/shared/schemas/alert';

/** The columns of an alert as the API shows it (with its rule's name, kind and severity). */
export const ALERT_COLUMNS = sql`a.id::text, a.entity, a.rule_id::text, r.name as rule_name, r.kind, r.severity,
  a.device, a.rollout::text, a.status, a.condition_since, a.raised_at, a.acknowledged_at, a.acknowledged_by,
  a.cleared_at, a.cleared_by, a.detail`;

type Row = Omit<Alert, 'condition_since' | 'raised_at' | 'acknowledged_at' | 'cleared_at'> & {
  condition_since: Date | string;
  raised_at: Date | string;
  acknowledged_at: Date | string | null;
  cleared_at: Date | string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/** An alert row (raw SQL: dates as strings or Dates) as the API answers it. */
export function presentAlert(row: Row): Alert {
  return {
    ...row,
    condition_since: iso(row.condition_since),
    raised_at: iso(row.raised_at),
    acknowledged_at: row.acknowledged_at === null ? null : iso(row.acknowledged_at),
    cleared_at: row.cleared_at === null ? null : iso(row.cleared_at),
  };
}
