import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { inScope, type FleetScope } from './fleet-now.ts';

export const DAY_MS = 86_400_000;

/** A count per outcome (or per firmware version, for adoption). */
export interface Outcome {
  outcome: string;
  count: number;
}
export interface VersionCount {
  version: string;
  count: number;
}

/** What happened in one entity's UTC day: what the daily snapshot keeps of it and a trend draws. */
export interface DayActivity {
  entity: string;
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** Devices online at some point in the day, and heard (a report or time online), from the hourly roll-up. */
  online_day: number;
  heard_day: number;
  /** Firmware updates that succeeded in the day, per version (devices). */
  adoption: VersionCount[];
  /** Commands, firmware updates and provisioning sessions started in the day, by outcome now. */
  commands: Outcome[];
  firmware_updates: Outcome[];
  provisioning: Outcome[];
}

/** Runs the queries at once, answering their results in order. */
const together = (queries: Array<() => Promise<unknown>>) => Promise.all(queries.map((query) => query()));

/** Runs the queries one at a time, answering their results in order. */
async function serially(queries: Array<() => Promise<unknown>>): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results;
}

/** A day that saw nothing. */
export const emptyDay = (entity: string, day: string): DayActivity => ({
  entity,
  day,
  online_day: 0,
  heard_day: 0,
  adoption: [],
  commands: [],
  firmware_updates: [],
  provisioning: [],
});

const dayOf = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`);
export const dayIso = (t: number) => new Date(t).toISOString().slice(0, 10);
export const utcDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/**
 * Each entity's days in [from, to) (ms; `from` a UTC midnight) that saw anything, read from the
 * tables that keep it, one grouped statement each, on the `(entity, time)` indexes.
 */
export async function dailyActivity(
  db: Db,
  scope: FleetScope,
  from: number,
  to: number,
  { serial = false } = {},
): Promise<DayActivity[]> {
  const [lo, hi] = [new Date(from).toISOString(), new Date(to).toISOString()];
  const during = (column: string) =>
    sql`${sql.raw(column)} >= ${lo}::timestamptz and ${sql.raw(column)} < ${hi}::timestamptz`;
  // At once on the pool; one after another on a transaction's one connection (`serial`, the sweep).
  const [heard, adoption, commands, sessions] = await (serial ? serially : together)([
    () =>
      db.execute(sql`
      select entity, ${dayOf('hour')} as day,
        count(distinct device) filter (where online_s > 0)::int as online,
        count(distinct device) filter (where points > 0 or online_s > 0)::int as heard
      from device_telemetry_hourly where ${during('hour')} ${inScope(scope)} group by 1, 2`),
    () =>
      db.execute(sql`
      select entity, ${dayOf('replied_at')} as day, coalesce(payload->>'version', '(none)') as version,
        count(distinct device)::int as count
      from commands where type = 'dfu' and state = 'succeeded' and ${during('replied_at')} ${inScope(scope)}
      group by 1, 2, 3 order by 3`),
    () =>
      db.execute(sql`
      select entity, ${dayOf('created_at')} as day, type = 'dfu' as dfu, state as outcome, count(*)::int as count
      from commands where ${during('created_at')} ${inScope(scope)} group by 1, 2, 3, 4`),
    () =>
      db.execute(sql`
      select entity, ${dayOf('created_at')} as day, status as outcome, count(*)::int as count
      from provision_sessions where ${during('created_at')} ${inScope(scope)} group by 1, 2, 3`),
  ]);
  const days = new Map<string, DayActivity>();
  const at = (entity: string, day: string) => {
    const key = `${entity}\n${day}`;
    let row = days.get(key);
    if (!row) {
      row = emptyDay(entity, day);
      days.set(key, row);
    }
    return row;
  };
  type Keyed = { entity: string; day: string };
  for (const r of rowsOf<Keyed & { online: number; heard: number }>(heard))
    Object.assign(at(r.entity, r.day), { online_day: r.online, heard_day: r.heard });
  for (const r of rowsOf<Keyed & VersionCount>(adoption))
    at(r.entity, r.day).adoption.push({ version: r.version, count: r.count });
  for (const r of rowsOf<Keyed & Outcome & { dfu: boolean }>(commands))
    at(r.entity, r.day)[r.dfu ? 'firmware_updates' : 'commands'].push({ outcome: r.outcome, count: r.count });
  for (const r of rowsOf<Keyed & Outcome>(sessions))
    at(r.entity, r.day).provisioning.push({ outcome: r.outcome, count: r.count });
  return [...days.values()];
}

/**
 * Devices that existed at the end of each day of [from, to) per entity, as a function: today's
 * devices by the day they were created (deleted ones are gone from every past day too).
 */
export async function existedByDay(db: Db, scope: FleetScope, from: number) {
  const rows = rowsOf<{ entity: string; day: string; n: number }>(
    await db.execute(sql`
      select entity, greatest(${dayOf('created_at')}, ${dayIso(from)}) as day, count(*)::int as n
      from devices where true ${inScope(scope)} group by 1, 2`),
  );
  return (entity: string | null, day: string) =>
    rows.reduce((sum, r) => ((entity === null || r.entity === entity) && r.day <= day ? sum + r.n : sum), 0);
}

/** The snapshot rows of the scope's days in [fromDay, toDay) (`YYYY-MM-DD`): one small read. */
export async function snapshotRows(db: Db, scope: FleetScope, fromDay: string, toDay: string) {
  return rowsOf<DayActivity & { existed: number }>(
    await db.execute(sql`
      select entity, to_char(day, 'YYYY-MM-DD') as day, existed, online_day, heard_day, adoption, commands,
        firmware_updates, provisioning
      from fleet_daily where day >= ${fromDay}::date and day < ${toDay}::date ${inScope(scope)}`),
  );
}

/** The day after the newest snapshot (`YYYY-MM-DD`), or null when none was taken. */
export async function dayAfterLastSnapshot(db: Db): Promise<string | null> {
  const [row] = rowsOf<{ next: string | null }>(
    await db.execute(sql`select to_char(max(day) + 1, 'YYYY-MM-DD') as next from fleet_daily`),
  );
  return row?.next ?? null;
}
