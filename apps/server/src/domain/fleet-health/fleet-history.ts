import { sql } from 'drizzle-orm';
import { FLEET_HEALTH_WINDOWS, type FleetHealth, type FleetHealthWindow } from '@fleet/shared/schemas/fleet-health';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { inScope, type FleetScope } from './fleet-now.ts';

const HOUR_MS = 3_600_000;
const iso = (v: unknown) => new Date(v as string).toISOString();

/** `column`'s time floored to a bucket of `seconds` (buckets line up on the epoch, so UTC days for 24 h). */
const bucketOf = (column: string, seconds: number) =>
  sql.raw(`to_timestamp(floor(extract(epoch from ${column}) / ${seconds}) * ${seconds})`);

/**
 * The window's history from the tables that keep it: per bucket, from the hourly roll-up, the
 * devices online at some point and those that existed but were never heard (no report, no time
 * online); firmware updates that succeeded per bucket and version; and commands, firmware updates
 * and provisioning sessions started in the window, by outcome. Hours not rolled up yet are not in
 * the presence series: the figures of now cover them. `totalNow`: the scope's devices now, of
 * which those not created in the window existed before it.
 */
export async function fleetHistory(
  db: Db,
  scope: FleetScope,
  window: FleetHealthWindow,
  now: Date,
  totalNow: Promise<number>,
) {
  const spec = FLEET_HEALTH_WINDOWS[window];
  const bucketS = spec.bucketHours * 3600;
  const from = new Date(Math.floor((now.getTime() - spec.hours * HOUR_MS) / HOUR_MS) * HOUR_MS).toISOString();
  const to = now.toISOString();
  const span = sql`${from}::timestamptz and ${to}::timestamptz`;

  const [heard, created, adoption, commands, sessions] = await Promise.all([
    db.execute(sql`
      select ${bucketOf('hour', bucketS)} as at,
        count(distinct device) filter (where online_s > 0)::int as online,
        count(distinct device) filter (where points > 0 or online_s > 0)::int as heard
      from device_telemetry_hourly where hour >= ${from}::timestamptz and hour < ${to}::timestamptz ${inScope(scope)}
      group by 1 order by 1`),
    // Devices created in the window by bucket (an index range); those before it are the rest of the total now.
    db.execute(sql`
      select ${bucketOf('created_at', bucketS)} as at, count(*)::int as n
      from devices where created_at >= ${from}::timestamptz ${inScope(scope)} group by 1 order by 1`),
    db.execute(sql`
      select ${bucketOf('replied_at', bucketS)} as at, payload->>'version' as version, count(distinct device)::int as count
      from commands where type = 'dfu' and state = 'succeeded' and replied_at between ${span} ${inScope(scope)}
      group by 1, 2 order by 1, 2`),
    db.execute(sql`
      select type = 'dfu' as dfu, state as outcome, count(*)::int as count
      from commands where created_at between ${span} ${inScope(scope)} group by 1, 2 order by 3 desc, 2`),
    db.execute(sql`
      select status as outcome, count(*)::int as count
      from provision_sessions where created_at between ${span} ${inScope(scope)} group by 1 order by 2 desc, 1`),
  ]);

  const recent = rowsOf<{ at: unknown; n: number }>(created).map((r) => ({ at: Date.parse(iso(r.at)), n: r.n }));
  const before = (await totalNow) - recent.reduce((sum, b) => sum + b.n, 0);
  const births = [{ at: Date.parse(from), n: before }, ...recent];
  const existedBy = (end: number) => births.reduce((sum, b) => (b.at < end ? sum + b.n : sum), 0);
  const presence: FleetHealth['presence'] = {
    bucket_s: bucketS,
    points: rowsOf<{ at: unknown; online: number; heard: number }>(heard).map((r) => {
      const at = iso(r.at);
      const silent = Math.max(0, existedBy(Date.parse(at) + bucketS * 1000) - r.heard);
      return { at, online: r.online, silent };
    }),
  };
  const outcomes = rowsOf<{ dfu: boolean; outcome: string; count: number }>(commands);
  return {
    presence,
    adoption: rowsOf<{ at: unknown; version: string | null; count: number }>(adoption).map((r) => ({
      at: iso(r.at),
      version: r.version ?? '(none)',
      count: r.count,
    })),
    outcomes: {
      commands: outcomes.filter((r) => !r.dfu).map(({ outcome, count }) => ({ outcome, count })),
      firmware_updates: outcomes.filter((r) => r.dfu).map(({ outcome, count }) => ({ outcome, count })),
      provisioning: rowsOf<{ outcome: string; count: number }>(sessions),
    },
  };
}
