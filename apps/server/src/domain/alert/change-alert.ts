import { sql } from 'drizzle-orm';
import type { Alert } from '@fleet/shared/schemas/alert';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { Bus } from '../../lib/bus.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { ALERT_COLUMNS, presentAlert } from './present-alert.ts';
import { UUID } from './rule-scope.ts';

type Change = 'acknowledge' | 'clear';

/** The statuses each change moves an alert from. */
const FROM: Record<Change, string[]> = { acknowledge: ['active'], clear: ['active', 'acknowledged'] };

/**
 * Acknowledges an active alert (who, when) or clears an open one by hand, audited in the same
 * transaction; another entity's alert, or no such alert, is 404; one already past that step, 409.
 */
export async function changeAlert(
  db: Db,
  bus: Bus,
  ctx: AuditContext,
  entity: string,
  id: string,
  change: Change,
  by: string,
): Promise<Alert> {
  if (!UUID.test(id)) throw notFound('Alert');
  const entry = { action: `alert.${change}`, entity, target: { type: 'alert', name: id } } as const;
  const complete = (a: Alert) => ({ details: { device: a.device, rule: a.rule_name } });
  const alert = await audited(db, ctx, { ...entry, complete }, async (tx: Tx) => {
    const [current] = rowsOf<{ status: string; device: string }>(
      await tx.execute(sql`select status, device from alerts where id = ${id} and entity = ${entity}
        and status <> 'pending' for update`),
    );
    if (!current) throw notFound('Alert');
    if (!FROM[change].includes(current.status))
      throw new HttpError(409, `The alert is ${current.status}`, `Cannot ${change} an alert that is ${current.status}`);
    const set =
      change === 'acknowledge'
        ? sql`status = 'acknowledged', acknowledged_at = now(), acknowledged_by = ${by}`
        : sql`status = 'cleared', cleared_at = now(), cleared_by = ${by}`;
    await tx.execute(sql`update alerts set ${set} where id = ${id}`);
    const [row] = rowsOf<Parameters<typeof presentAlert>[0]>(
      await tx.execute(
        sql`select ${ALERT_COLUMNS} from alerts a join alert_rules r on r.id = a.rule_id where a.id = ${id}`,
      ),
    );
    return presentAlert(row!);
  });
  await bus.publish('alerts.changed', { entities: [entity] });
  return alert;
}
