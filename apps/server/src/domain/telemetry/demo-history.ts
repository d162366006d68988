import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sweepFleetDaily } from '../fleet-health/fleet-daily-sweep.ts';
import { ensureRawPartitions, sweepTelemetry, type TelemetryRetention } from './telemetry-sweep.ts';

const DAY_MS = 86_400_000;
/** One report every this many minutes while awake. */
const STEP_MIN = 30;
/** The firmware the fleet ran, and the release rolled out to it partway through the month. */
export const DEMO_HISTORY_FIRMWARE = ['1.5.1', '1.6.0'] as const;

export interface DemoHistory {
  entity: string;
  /** The dispensers to give a past. */
  devices: string[];
  /** One of `devices`: its battery ran out a week ago and it never came back. */
  dead: string;
  days?: number;
  now?: Date;
}

/**
 * `npm run demo`'s past (issue 26): `days` of believable telemetry for the demo's dispensers,
 * written in bulk with SQL (day partitions first, then one statement) and rolled up as the hourly
 * sweep would. A day: undocked from 07:00 and draining at 3–6 %/h, allocated now and then, asleep
 * for half-hours when idle; docked and charging from 21:00. The firmware moves from 1.5.1 to
 * 1.6.0 in a rolling night-time wave 12 days ago. The dead device was left out of its dock 8 days
 * ago, ran flat the next afternoon, went offline and was never heard from again.
 *
 * Idempotent: a device is filled only before its earliest point, so a second run (or one after
 * the devices reported live) adds nothing. Answers the number of points written.
 */
export async function backfillDemoHistory(db: Db, h: DemoHistory, retention: TelemetryRetention): Promise<number> {
  const now = (h.now ?? new Date()).getTime();
  const days = h.days ?? 30;
  const start = Math.ceil((now - days * DAY_MS) / (STEP_MIN * 60_000)) * STEP_MIN * 60_000;
  // The dead device: out of its dock from 07:00 eight days ago, 3.2 %/h takes it to 0 the next afternoon.
  const undocked = Math.floor(now / DAY_MS) * DAY_MS - 8 * DAY_MS + 7 * 3_600_000;
  const fwWave = Math.floor(now / DAY_MS) * DAY_MS - 12 * DAY_MS + 2 * 3_600_000;
  if (h.devices.length === 0) return 0;
  await ensureRawPartitions(db, start, now);
  const iso = (t: number) => new Date(t).toISOString();
  const result = await db.execute(sql`
    with dev as (
      select name, ord::int - 1 as d from unnest(${sql.raw(pgTextArray(h.devices))}::text[]) with ordinality as u(name, ord)
    ),
    span as (
      select dev.name, dev.d, coalesce(
        (select min(at) from device_telemetry t where t.entity = ${h.entity} and t.device = dev.name),
        ${iso(now)}::timestamptz) as until
      from dev
    ),
    slot as (
      select s.name, s.d, t,
        extract(epoch from t)::bigint as e,
        (extract(epoch from t)::bigint % 86400) / 3600.0 as hr,
        extract(epoch from t)::bigint / 86400 as k
      from span s, generate_series(${iso(start)}::timestamptz, s.until - interval '1 second',
                                   interval '${sql.raw(String(STEP_MIN))} minutes') as t
    ),
    calc as (
      select name, d, t, e, hr, k,
        -- Per device and day, a drain rate; per slot and half-hour, the dice for state and sleep.
        3 + 3 * ((abs(hashtext(name || k)) % 1000) / 1000.0) as rate,
        3 + 3 * ((abs(hashtext(name || (k - 1))) % 1000) / 1000.0) as rate_before,
        (abs(hashtext(name || e)) % 1000) / 1000.0 as dice,
        (abs(hashtext(name || (e / 3600))) % 1000) / 1000.0 as nap,
        name = ${h.dead} and e >= ${undocked / 1000} as dying
      from slot
    ),
    point as (
      select name, t,
        case when dying then greatest(0, 100 - (e - ${undocked / 1000}) / 3600.0 * 3.2)
             when hr >= 7 and hr < 21 then 100 - (hr - 7) * rate
             when hr >= 21 then least(100, 100 - 14 * rate + (hr - 21) * 25)
             else least(100, 100 - 14 * rate_before + (hr + 3) * 25) end as battery,
        not dying and (hr < 7 or hr >= 21) as charging,
        case when t >= ${iso(fwWave)}::timestamptz + d * interval '7 minutes'
             then ${DEMO_HISTORY_FIRMWARE[1]} else ${DEMO_HISTORY_FIRMWARE[0]} end as fw,
        dying, hr, dice, nap
      from calc
    ),
    gone as (select min(t) as death from point where dying and battery <= 0),
    shaped as (
      select name, t, battery::smallint as battery, charging, fw,
        case when battery < 5 then 'UNAVAILABLE'
             when charging then 'WAITING'
             when dice < 0.01 then 'BOOTING'
             when dice < 0.28 then 'ALLOCATED'
             else 'WAITING' end as state,
        not (battery <= 0 and dying) and (charging or dice >= 0.28 or nap >= 0.25) as online
      from point
      -- The dead device says nothing once it went offline.
      where not (dying and battery <= 0 and t > (select death from gone))
    ),
    kinded as (
      select *, lag(online) over w as was_online, lag(state) over w as was_state,
        lag(charging) over w as was_charging, lag(fw) over w as was_fw
      from shaped window w as (partition by name order by t)
    )
    insert into device_telemetry (entity, device, at, device_at, kind, online, state, battery, is_charging, fw_version)
    select ${h.entity}, name, t, t - interval '2 seconds',
      case when not online then 'offline'
           when was_online is not true then 'online'
           when state is distinct from was_state or charging is distinct from was_charging
             or fw is distinct from was_fw then 'change'
           else 'report' end,
      online, state, battery, charging, fw
    from kinded
    where online or was_online is not false`);
  const written = Number((result as { rowCount?: number | null }).rowCount ?? 0);
  if (written === 0) return 0;
  // The device row says what its last point says: flat, offline, quiet since.
  await db.execute(sql`
    update devices d set battery = 0, is_charging = false, state_current = 'UNAVAILABLE', online = false,
      fw_version = coalesce(d.fw_version, ${DEMO_HISTORY_FIRMWARE[1]}), updated_at = last.at
    from (select max(at) as at from device_telemetry where entity = ${h.entity} and device = ${h.dead}) last
    where d.entity = ${h.entity} and d.name = ${h.dead} and d.battery is null and last.at is not null`);
  // The rollup's mark only moves forward: start it again from the oldest point so the backfill is in.
  await db.execute(sql`delete from telemetry_rollup`);
  await sweepTelemetry(db, retention, new Date(now));
  // The daily fleet snapshot is taken again over the backfilled month (its first run's 30 days).
  await db.execute(sql`delete from fleet_daily`);
  await sweepFleetDaily(db, retention.hourlyDays, new Date(now));
  return written;
}

/** A text[] literal of plain names (device ids: letters, digits, `_`, `-`). */
function pgTextArray(names: string[]): string {
  for (const n of names) if (!/^[\w-]+$/.test(n)) throw new Error(`Not a device name: ${n}`);
  return `'{${names.join(',')}}'`;
}
