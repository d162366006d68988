import { count, sql, type SQL } from 'drizzle-orm';
import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import { DeviceFilterQuerySchema, type DeviceFilterQuery } from '@fleet/shared/schemas/device';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { devices } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { inScope, unresponsiveOf } from '../fleet-health/fleet-now.ts';

/** The filter's fields (not the page or the sort); the landlord's `entity` is the scope here. */
const FIELDS = DeviceFilterQuerySchema.keyof().options.filter((k) => k !== 'entity');

/** The filter's fields that narrow the list. */
const narrowing = (q: DeviceFilterQuery) =>
  FIELDS.filter((k) => {
    const v = q[k];
    return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== '';
  });

/**
 * The rows of `fleet_counts` (migration 0028) whose sum is the filter's count, when the filter is
 * nothing, or one counted field (states; battery bands, or Charging alone; types and firmware
 * versions, together too; online or never seen alone). Undefined: count the devices.
 */
function keptKeys(q: DeviceFilterQuery): SQL | undefined {
  const fields = narrowing(q).sort().join(',');
  if (fields === '') return sql`dim = 'total'`;
  if (fields === 'status') return sql`dim = 'state' and a in ${q.status}`;
  if (fields === 'battery' && (q.battery.length === 1 || !q.battery.includes('Charging')))
    return sql`dim in ${q.battery.map((b) => b.toLowerCase())}`;
  if (fields === 'fw_version,type' || fields === 'fw_version' || fields === 'type')
    return sql`dim = 'fw' ${q.type.length > 0 ? sql`and a in ${q.type}` : sql``}
      ${q.fw_version.length > 0 ? sql`and b in ${q.fw_version}` : sql``}`;
  if (fields === 'seen' && q.seen.length === 1 && q.seen[0] !== 'unresponsive')
    return sql`dim = ${q.seen[0] === 'online' ? 'online' : 'never'}`;
  return undefined;
}

/**
 * How many devices of the scope the filter matches (`where`, from deviceFilter): from the counts
 * kept as devices change when the filter allows (the total, a state, a band, a firmware, online,
 * never seen; unresponsive as the fleet health counts it), else counted over the devices. Exact
 * either way: the kept counts move in the statement that moves a device.
 */
export async function countDevices(
  db: Db,
  scope: Scope,
  q: DeviceFilterQuery,
  where: SQL | undefined,
  now = Date.now(),
): Promise<number> {
  const entity = scope ?? (q.entity || null);
  const unresponsive = narrowing(q).join(',') === 'seen' && q.seen.length === 1 && q.seen[0] === 'unresponsive';
  const keys = unresponsive ? sql`dim = 'total'` : keptKeys(q);
  if (keys) {
    const [{ n = 0 } = {}] = rowsOf<{ n: number }>(
      await db.execute(sql`select coalesce(sum(n), 0)::int as n from fleet_counts where ${keys} ${inScope(entity)}`),
    );
    if (!unresponsive || n === 0) return n;
    return unresponsiveOf(db, entity, new Date(now - UNRESPONSIVE_AFTER_MS).toISOString(), n);
  }
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(devices).where(where);
  return total;
}
