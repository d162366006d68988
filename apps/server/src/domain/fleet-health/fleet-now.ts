import { sql, type SQL } from 'drizzle-orm';
import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
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

interface CountRow {
  dim: string;
  a: string | null;
  b: string | null;
  n: number;
}

/**
 * Devices a count of "heard in the last 20 minutes" reads before it counts the other side: in a
 * healthy fleet few are unresponsive, in a quiet one few were heard; both sides are index ranges.
 */
const RECENT_PROBE = 2_000;

/**
 * Unresponsive devices (no sign of life for the shared 20 minutes, the list's `seen=unresponsive`):
 * the scope's total less those heard since the cutoff when those are few, else counted directly.
 */
export async function unresponsiveOf(db: Db, scope: FleetScope, cutoff: string, total: number) {
  const [{ n: recent = 0 } = {}] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from (
        select 1 from devices where updated_at >= ${cutoff}::timestamptz ${inScope(scope)} limit ${RECENT_PROBE}) r`),
  );
  if (recent < RECENT_PROBE) return total - recent;
  const [{ n = 0 } = {}] = rowsOf<{ n: number }>(
    await db.execute(
      sql`select count(*)::int as n from devices where updated_at < ${cutoff}::timestamptz ${inScope(scope)}`,
    ),
  );
  return n;
}

/**
 * The figures of now from the counts kept as the devices change (`fleet_counts`, migration 0028:
 * statement triggers on devices, one signed row per key a statement moved, folded by
 * foldFleetCounts): totals, presence, battery bands, states, and types and firmware versions.
 * Each key is the predicate the device list filters with, so a figure is the list's `total` for
 * its link: battery bands on the shared thresholds (Charging: charging with a battery), never seen
 * as a last sign of life equal to the creation (`updated_at` starts there and moves only with a
 * sign of life). Unresponsive depends on the clock: read from the devices' `updated_at` indexes.
 */
export async function fleetNow(db: Db, scope: FleetScope, now: Date) {
  const cutoff = new Date(now.getTime() - UNRESPONSIVE_AFTER_MS).toISOString();
  const rows = rowsOf<CountRow>(
    await db.execute(sql`
      select dim, a, b, sum(n)::int as n from fleet_counts where true ${inScope(scope)}
      group by 1, 2, 3 having sum(n) <> 0`),
  );
  const n = (dim: string) => rows.find((r) => r.dim === dim)?.n ?? 0;
  const total = n('total');
  const figures: Pick<FleetHealth, 'devices' | 'battery' | 'states' | 'firmware'> = {
    devices: {
      total,
      online: n('online'),
      unresponsive: total === 0 ? 0 : await unresponsiveOf(db, scope, cutoff, total),
      never_seen: n('never'),
    },
    battery: [
      { band: 'High', count: n('high') },
      { band: 'Medium', count: n('medium') },
      { band: 'Low', count: n('low') },
      { band: 'Charging', count: n('charging') },
    ],
    states: rows
      .filter((r) => r.dim === 'state')
      .map((r) => ({ state: r.a, count: r.n }))
      .sort((a, b) => b.count - a.count || nullsLast(a.state, b.state)),
    firmware: rows
      .filter((r) => r.dim === 'fw')
      .map((r) => ({ type: r.a ?? '', version: r.b, count: r.n }))
      .sort((a, b) => a.type.localeCompare(b.type) || b.count - a.count || nullsLast(a.version, b.version)),
  };
  return figures;
}

/**
 * Folds each key's rows of `fleet_counts` into one (zero counts go), in one statement: rows a
 * writer adds meanwhile are not in its snapshot and stay for the next fold. Answers the rows left.
 */
export async function foldFleetCounts(db: Db) {
  const folded = await db.execute(sql`
    with gone as (delete from fleet_counts returning entity, dim, a, b, n)
    insert into fleet_counts (entity, dim, a, b, n)
    select entity, dim, a, b, sum(n)::int from gone group by 1, 2, 3, 4 having sum(n) <> 0`);
  return (folded as { rowCount?: number | null }).rowCount ?? 0;
}
