import { sql } from 'drizzle-orm';
import { tryTransactionLock } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';

export interface TelemetryRetention {
  /** Raw points are kept this many days (TELEMETRY_RAW_DAYS). */
  rawDays: number;
  /** Hourly aggregates are kept this many days (TELEMETRY_HOURLY_DAYS). */
  hourlyDays: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Days of raw partitions made ahead of today, so a write never waits for one. */
const DAYS_AHEAD = 2;
/** An hour is rolled up this long after it ends, so a flush still writing into it is in. */
const ROLLUP_GRACE_MS = 60_000;
/** Hours rolled up by one statement. */
const ROLLUP_CHUNK_HOURS = 24;
/** How far back the state at the start of a rolled-up window is looked for. */
const CARRY_LOOKBACK = '2 days';
/** Rows deleted from a default partition by one statement. */
const DELETE_BATCH = 10_000;
/** One sweep at a time across instances (a transaction-scoped advisory lock). */
const SWEEP_LOCK = 0x7e1e_5eed;

const RAW = 'device_telemetry';
const HOURLY = 'device_telemetry_hourly';

const utcDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const ymd = (t: number) => new Date(t).toISOString().slice(0, 10).replaceAll('-', '');
const monthStart = (t: number, add = 0) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1);
};

/**
 * The telemetry history's upkeep, run at start and hourly by the device side: makes tomorrow's
 * partitions, rolls complete hours up into hourly aggregates, and drops whole partitions past
 * retention (a raw day only once it is rolled up). Each step is its own short transaction under
 * an advisory lock, so two instances never race and ingest waits on no long DDL.
 */
export async function sweepTelemetry(db: Db, retention: TelemetryRetention, now = new Date()): Promise<void> {
  const t = now.getTime();
  for (let day = utcDay(t) - DAY_MS; day <= utcDay(t) + DAYS_AHEAD * DAY_MS; day += DAY_MS) {
    await ensurePartition(db, RAW, 'at', `${RAW}_p${ymd(day)}`, day, day + DAY_MS);
  }
  for (const month of [monthStart(t), monthStart(t, 1)]) {
    await ensurePartition(db, HOURLY, 'hour', `${HOURLY}_p${ymd(month).slice(0, 6)}`, month, monthStart(month, 1));
  }
  await rollUp(db, Math.floor((t - ROLLUP_GRACE_MS) / HOUR_MS) * HOUR_MS);
  // A raw day is rolled up again as it is dropped: rows written after its hours were (a backfill) count too.
  await dropBefore(db, RAW, 'at', t - retention.rawDays * DAY_MS, (tx, from, to) => tx.execute(upsertHourly(from, to)));
  await dropBefore(db, HOURLY, 'hour', t - retention.hourlyDays * DAY_MS);
}

/** Makes the raw day partitions of [from, to) (ms) that are missing: a backfill's, before it writes. */
export async function ensureRawPartitions(db: Db, from: number, to: number): Promise<void> {
  for (let day = utcDay(from); day < to; day += DAY_MS) {
    await ensurePartition(db, RAW, 'at', `${RAW}_p${ymd(day)}`, day, day + DAY_MS);
  }
}

/** Runs `work` in a transaction holding the sweep lock; skips it when another instance holds it. */
async function locked(db: Db, work: (tx: Db) => Promise<void>): Promise<void> {
  await db.transaction(async (tx) => {
    if (await tryTransactionLock(tx as unknown as Db, SWEEP_LOCK)) await work(tx as unknown as Db);
  });
}

/**
 * Creates one partition when missing: as a table of its own, filled with any rows of its range
 * the default partition caught, then attached (attaching checks the default holds none left).
 */
async function ensurePartition(db: Db, parent: string, key: string, name: string, from: number, to: number) {
  const [found] = rowsOf<{ ok: boolean }>(await db.execute(sql`select to_regclass(${name}) is not null as ok`));
  if (found?.ok) return;
  const lo = new Date(from).toISOString();
  const hi = new Date(to).toISOString();
  await locked(db, async (tx) => {
    const [again] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select to_regclass(${name}) is not null as ok`));
    if (again?.ok) return;
    const [p, d, k] = [sql.identifier(parent), sql.identifier(`${parent}_default`), sql.identifier(key)];
    await tx.execute(sql`create table ${sql.identifier(name)} (like ${p} including defaults including constraints)`);
    await tx.execute(sql`
      with moved as (delete from ${d} where ${k} >= ${lo}::timestamptz and ${k} < ${hi}::timestamptz returning *)
      insert into ${sql.identifier(name)} select * from moved`);
    await tx.execute(
      sql`alter table ${p} attach partition ${sql.identifier(name)} for values from (${sql.raw(`'${lo}'`)}) to (${sql.raw(`'${hi}'`)})`,
    );
  });
}

/**
 * Drops the partitions wholly before `cutoff` (ms), each after `keep` saw its range in the same
 * transaction, and deletes such rows from the default partition in batches.
 */
async function dropBefore(
  db: Db,
  parent: string,
  key: string,
  cutoff: number,
  keep?: (tx: Db, fromIso: string, toIso: string) => Promise<unknown>,
): Promise<void> {
  const children = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = to_regclass(${parent})`),
  );
  const prefix = `${parent}_p`;
  for (const { name } of children) {
    if (!name.startsWith(prefix)) continue;
    const stamp = name.slice(prefix.length);
    const [y, m, d] = [Number(stamp.slice(0, 4)), Number(stamp.slice(4, 6)) - 1, Number(stamp.slice(6, 8) || 1)];
    const [start, end] =
      stamp.length === 8 ? [Date.UTC(y, m, d), Date.UTC(y, m, d) + DAY_MS] : [Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1)];
    if (end > cutoff) continue;
    await locked(db, async (tx) => {
      await keep?.(tx, new Date(start).toISOString(), new Date(end).toISOString());
      await tx.execute(sql`drop table if exists ${sql.identifier(name)}`);
    });
  }
  const before = new Date(cutoff).toISOString();
  const [d, k] = [sql.identifier(`${parent}_default`), sql.identifier(key)];
  if (keep) {
    const [old] = rowsOf<{ since: string | null }>(
      await db.execute(sql`select min(${k}) as since from ${d} where ${k} < ${before}::timestamptz`),
    );
    if (old?.since) {
      const since = new Date(Math.floor(Date.parse(old.since) / HOUR_MS) * HOUR_MS).toISOString();
      await locked(db, async (tx) => void (await keep(tx, since, before)));
    }
  }
  for (;;) {
    const result = await db.execute(sql`
      delete from ${d} where ctid in (select ctid from ${d} where ${k} < ${before}::timestamptz limit ${DELETE_BATCH})`);
    const count = (result as { rowCount?: number | null; affectedRows?: number }).rowCount ?? 0;
    if (Number(count) < DELETE_BATCH) break;
  }
}

/**
 * Rolls up every complete hour since the watermark, up to `until` (ms), a day at a time; answers
 * the new watermark. A first run starts at the oldest raw point.
 */
async function rollUp(db: Db, until: number): Promise<number> {
  const [mark] = rowsOf<{ through: string | null }>(
    await db.execute(sql`
      select coalesce(
        (select through from telemetry_rollup),
        (select date_trunc('hour', min(at) at time zone 'UTC') at time zone 'UTC' from device_telemetry)) as through`),
  );
  if (!mark?.through) return until;
  let from = new Date(mark.through).getTime();
  while (from < until) {
    const to = Math.min(until, from + ROLLUP_CHUNK_HOURS * HOUR_MS);
    await locked(db, async (tx) => {
      await tx.execute(upsertHourly(new Date(from).toISOString(), new Date(to).toISOString()));
      await tx.execute(sql`
        insert into telemetry_rollup (id, through) values (true, ${new Date(to).toISOString()}::timestamptz)
        on conflict (id) do update set through = greatest(telemetry_rollup.through, excluded.through)`);
    });
    from = to;
  }
  return from;
}

/** Writes (or rewrites) the hourly aggregates of [from, to). */
function upsertHourly(fromIso: string, toIso: string) {
  return sql`
    insert into device_telemetry_hourly
      (entity, device, hour, points, battery_min, battery_max, battery_mean, charging_s, online_s, state_s)
    ${hourlyAggregates(fromIso, toIso)}
    on conflict (entity, device, hour) do update set
      points = excluded.points, battery_min = excluded.battery_min, battery_max = excluded.battery_max,
      battery_mean = excluded.battery_mean, charging_s = excluded.charging_s, online_s = excluded.online_s,
      state_s = excluded.state_s`;
}

/**
 * Hourly aggregates of [from, to), as a query answering the hourly table's columns: battery
 * min/max/mean and the point count from the raw rows of each hour; time online, charging and in
 * each state from the device's step function (each row holds until the next, the window's first
 * from the device's last row before it). Every device's, or one device's (the telemetry answer's
 * hours not yet rolled up).
 */
export function hourlyAggregates(fromIso: string, toIso: string, only?: { entity: string; device: string }) {
  const from = sql`${fromIso}::timestamptz`;
  const to = sql`${toIso}::timestamptz`;
  const raw = only ? sql`and entity = ${only.entity} and device = ${only.device}` : sql``;
  const dev = only ? sql`where d.entity = ${only.entity} and d.name = ${only.device}` : sql``;
  const hourOf = (col: string) => sql.raw(`date_trunc('hour', ${col} at time zone 'UTC') at time zone 'UTC'`);
  return sql`
    with pts as (
      select entity, device, at, online, state, is_charging from device_telemetry
      where at >= ${from} and at < ${to} ${raw}
      union all
      select d.entity, d.name, ${from}, c.online, c.state, c.is_charging
      from devices d cross join lateral (
        select t.online, t.state, t.is_charging from device_telemetry t
        where t.entity = d.entity and t.device = d.name
          and t.at < ${from} and t.at >= ${from} - ${CARRY_LOOKBACK}::interval
        order by t.at desc limit 1) c ${dev}
    ),
    seg as (
      select entity, device, at as s, coalesce(lead(at) over (partition by entity, device order by at), ${to}) as e,
        online, state, is_charging
      from pts
    ),
    pieces as (
      select entity, device, h.hour, greatest(s, h.hour) as s, least(e, h.hour + interval '1 hour') as e,
        online, state, is_charging
      from seg cross join lateral generate_series(${hourOf('s')}, e, interval '1 hour') h(hour)
      where e > s and online
    ),
    span as (
      select entity, device, hour,
        round(sum(extract(epoch from e - s)))::int as online_s,
        coalesce(round(sum(extract(epoch from e - s)) filter (where is_charging)), 0)::int as charging_s
      from pieces where e > s group by entity, device, hour
    ),
    states as (
      select entity, device, hour, jsonb_object_agg(state, secs) as state_s from (
        select entity, device, hour, state, round(sum(extract(epoch from e - s)))::int as secs
        from pieces where e > s and state is not null group by entity, device, hour, state) x
      group by entity, device, hour
    ),
    battery as (
      select entity, device, ${hourOf('at')} as hour, count(*)::int as points,
        min(battery) as battery_min, max(battery) as battery_max, avg(battery)::real as battery_mean
      from device_telemetry where at >= ${from} and at < ${to} ${raw} group by entity, device, 3
    )
    select coalesce(b.entity, s.entity) as entity, coalesce(b.device, s.device) as device,
      coalesce(b.hour, s.hour) as hour, coalesce(b.points, 0) as points, b.battery_min, b.battery_max,
      b.battery_mean, coalesce(s.charging_s, 0) as charging_s, coalesce(s.online_s, 0) as online_s,
      coalesce(st.state_s, '{}'::jsonb) as state_s
    from battery b
      full join span s on s.entity = b.entity and s.device = b.device and s.hour = b.hour
      left join states st on st.entity = coalesce(b.entity, s.entity) and st.device = coalesce(b.device, s.device)
        and st.hour = coalesce(b.hour, s.hour)`;
}
