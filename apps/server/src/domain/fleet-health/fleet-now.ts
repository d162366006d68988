import { sql, type SQL } from 'drizzle-orm';
import { BATTERY_HIGH_ABOVE, BATTERY_MEDIUM_ABOVE, UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import type { FleetHealth } from '@fleet/shared/schemas/fleet-health';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

/** Which devices a fleet figure counts: one entity's, or every entity's (`null`). */
export type FleetScope = string | null;

/** `and entity = …` for a scope, or nothing for every entity. */
export const inScope = (scope: FleetScope, column = sql.raw('entity')): SQL =>
  scope === null ? sql`` : sql`and ${column} = ${scope}`;

/** Names in order, nothing reported (null) after every name. */
const nullsLast = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b);

interface NowRow {
  by_state: number;
  by_firmware: number;
  state_current: string | null;
  manufacturing_type: string;
  fw_version: string | null;
  total: number;
  online: number;
  unresponsive: number;
  never_seen: number;
  high: number;
  medium: number;
  low: number;
  charging: number;
}

/**
 * The figures of now in ONE scan of the scope's devices: totals, presence and battery bands over
 * all of them, and the counts per state and per type and firmware version as grouping sets of
 * the same scan. Each predicate is the one the device list filters with, so a figure is the
 * list's `total` for its link: battery bands on the shared thresholds (Charging: charging with a
 * battery), unresponsive on the shared 20 minutes, never seen as a last sign of life no later
 * equal to the creation (`updated_at` starts there and moves only with a sign of life).
 */
export async function fleetNow(db: Db, scope: FleetScope, now: Date) {
  const cutoff = new Date(now.getTime() - UNRESPONSIVE_AFTER_MS).toISOString();
  const rows = rowsOf<NowRow>(
    await db.execute(sql`
      select grouping(state_current)::int as by_state, grouping(manufacturing_type, fw_version)::int as by_firmware,
        state_current, manufacturing_type, fw_version,
        count(*)::int as total,
        count(*) filter (where online)::int as online,
        count(*) filter (where updated_at < ${cutoff}::timestamptz)::int as unresponsive,
        count(*) filter (where updated_at = created_at)::int as never_seen,
        count(*) filter (where battery > ${BATTERY_HIGH_ABOVE})::int as high,
        count(*) filter (where battery > ${BATTERY_MEDIUM_ABOVE} and battery <= ${BATTERY_HIGH_ABOVE})::int as medium,
        count(*) filter (where battery <= ${BATTERY_MEDIUM_ABOVE})::int as low,
        count(*) filter (where is_charging and battery is not null)::int as charging
      from devices where true ${inScope(scope)}
      group by grouping sets ((), (state_current), (manufacturing_type, fw_version))`),
  );
  const all = rows.find((r) => r.by_state !== 0 && r.by_firmware !== 0);
  const n = (v: number | undefined) => Number(v ?? 0);
  const figures: Pick<FleetHealth, 'devices' | 'battery' | 'states' | 'firmware'> = {
    devices: {
      total: n(all?.total),
      online: n(all?.online),
      unresponsive: n(all?.unresponsive),
      never_seen: n(all?.never_seen),
    },
    battery: [
      { band: 'High', count: n(all?.high) },
      { band: 'Medium', count: n(all?.medium) },
      { band: 'Low', count: n(all?.low) },
      { band: 'Charging', count: n(all?.charging) },
    ],
    states: rows
      .filter((r) => r.by_state === 0)
      .map((r) => ({ state: r.state_current, count: n(r.total) }))
      .sort((a, b) => b.count - a.count || nullsLast(a.state, b.state)),
    firmware: rows
      .filter((r) => r.by_firmware === 0)
      .map((r) => ({ type: r.manufacturing_type, version: r.fw_version, count: n(r.total) }))
      .sort((a, b) => a.type.localeCompare(b.type) || b.count - a.count || nullsLast(a.version, b.version)),
  };
  return figures;
}
