import { sql, type SQL } from 'drizzle-orm';
import type { AlertListQuery, AlertPage } from '@fleet/shared/schemas/alert';
import { COUNT_CAP } from '@fleet/shared/schemas/list';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { ALERT_COLUMNS, presentAlert } from './present-alert.ts';

/**
 * The entity's alerts (pending ones never), newest raised first, filtered in the database; with
 * no entity (a superadmin's view), every entity's, or the one `q.entity` names. `total` is exact
 * up to `offset + limit + cap`, then that bound with `total_is_lower_bound`: an exact count read
 * every alert of a burst beside each page (10 ms of PGlite's one connection at 10,000 alerts,
 * docs/decisions/2026-11-29-alert-total-capped.md).
 */
export async function listAlerts(
  db: Db,
  entity: string | null,
  q: AlertListQuery,
  cap = COUNT_CAP,
): Promise<AlertPage> {
  const where: SQL[] = [sql`a.status <> 'pending'`];
  const only = entity ?? q.entity;
  if (only !== undefined) where.push(sql`a.entity = ${only}`);
  if (q.status === 'open') where.push(sql`a.status in ('active', 'acknowledged')`);
  else if (q.status) where.push(sql`a.status = ${q.status}`);
  if (q.severity) where.push(sql`r.severity = ${q.severity}`);
  if (q.kind) where.push(sql`r.kind = ${q.kind}`);
  if (q.device) where.push(sql`a.device = ${q.device}`);
  const filter = sql.join(where, sql` and `);
  // The count reads the rules only to filter by them. Pending alerts have no raised_at, so "nulls
  // last" changes nothing but lets the page be read in the index's order.
  const counted = q.severity || q.kind ? sql`alerts a join alert_rules r on r.id = a.rule_id` : sql`alerts a`;
  const bound = q.offset + q.limit + cap;
  const [data, count] = await Promise.all([
    db.execute(sql`select ${ALERT_COLUMNS} from alerts a join alert_rules r on r.id = a.rule_id
      where ${filter} order by a.raised_at desc nulls last, a.id desc limit ${q.limit} offset ${q.offset}`),
    db.execute(sql`select count(*)::int as total from (select 1 from ${counted} where ${filter} limit ${bound + 1}) c`),
  ]);
  const n = rowsOf<{ total: number }>(count)[0]?.total ?? 0;
  return {
    data: rowsOf<Parameters<typeof presentAlert>[0]>(data).map(presentAlert),
    total: Math.min(n, bound),
    total_is_lower_bound: n > bound,
  };
}
