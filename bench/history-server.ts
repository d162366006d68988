// Child process for bench/history.mjs (run with `node --import tsx`): the real app on
// 127.0.0.1:PORT with entity `bench` and its admin, AUDIT audit entries over 50 entities and
// POINTS telemetry points for DEVICES devices of `bench` over the last 30 days, all made with SQL
// in bulk, then rolled up into hourly aggregates as the hourly sweep would. Prints one JSON line
// {ready, fill, sizes} once listening. DATABASE_URL selects PostgreSQL.
import { sql } from 'drizzle-orm';

const { build } = await import('../apps/server/src/app.ts');
const { loadConfig } = await import('../apps/server/src/config.ts');
const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { sweepTelemetry } = await import('../apps/server/src/domain/telemetry/telemetry-sweep.ts');
const { BENCH_PASSWORD, seedBenchTenant } = await import('./bench-tenant.ts');

const AUDIT = Number(process.env.AUDIT ?? 1_000_000);
const POINTS = Number(process.env.POINTS ?? 10_000_000);
const DEVICES = Number(process.env.DEVICES ?? 4_000);
const DAYS = 30;
const DAY_MS = 86_400_000;

const config = loadConfig({
  DATA_DIR: process.env.DATA_DIR,
  ADMIN_PASSWORD: BENCH_PASSWORD,
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  MQTT_PORT: '0',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
// Migrations first, outside Fastify's plugin timeout (a reused fill's new indexes take minutes).
if (!process.env.DATABASE_URL) await (await openDatabase({ dataDir: config.DATA_DIR })).close();
const app = await build(config, { logger: false });
const db = app.db;
await seedBenchTenant(db, ['bench', 'other']);
const say = (line: string) => console.error(`[history-server] ${line}`);
const fill: Record<string, number> = {};
// REUSE=1 (history.mjs --data-dir): a data directory an earlier run filled is measured as it is.
// Any fill counts: the retention sweep drops the entries that aged past 365 days since it was made.
const [filled] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from audit_entries`));
const reuse = process.env.REUSE === '1' && (filled?.n ?? 0) >= AUDIT / 2;
if (reuse) say(`reusing the fill in ${process.env.DATA_DIR} (${filled?.n} audit entries)`);
const timed = async (name: string, work: () => Promise<unknown>) => {
  if (reuse) return;
  const t0 = performance.now();
  await work();
  fill[name] = Math.round(performance.now() - t0);
  say(`${name}: ${(fill[name] / 1000).toFixed(1)} s`);
};

// Audit: a fifth in `bench`, the rest over 49 other entities; a year of sign-ins, changes,
// commands and failures by 200 actors, newest last (ids grow with time, as in production).
const ACTIONS = ['session.login', 'device.update', 'command.send', 'device.create', 'group.update', 'file.create'];
await timed('audit entries', () =>
  db.execute(sql`
    insert into audit_entries (at, entity, actor_kind, actor_id, actor_name, actor_account, address, user_agent,
                               action, target_type, target_name, outcome, reason, changes)
    select now() - make_interval(secs => (${AUDIT} - i) * (365 * 86400.0 / ${AUDIT})),
           case when i % 5 = 0 then 'bench' else 'e' || lpad((i % 49)::text, 2, '0') end,
           'account', null, 'user_' || (i % 200), 'user_' || (i % 200), '10.0.' || (i % 250) || '.' || (i % 7),
           'Mozilla/5.0 (bench)',
           (${sql.raw(`array[${ACTIONS.map((a) => `'${a}'`).join(',')}]`)})[1 + i % ${ACTIONS.length}],
           case i % ${ACTIONS.length} when 0 then 'session' when 2 then 'device' when 3 then 'device'
                when 1 then 'device' when 4 then 'group' else 'file' end,
           'unit_' || (i % 5000),
           case when i % 37 = 0 then 'failure' else 'success' end,
           case when i % 37 = 0 then 'Wrong password' else null end,
           case when i % 3 = 0 then jsonb_build_object('before', jsonb_build_object('description', 'old ' || i),
                                                       'after', jsonb_build_object('description', 'new ' || i))
                else null end
    from generate_series(1, ${AUDIT}) as i`),
);

// Telemetry: the devices, their day partitions, then each day's points (a battery that drains
// over a day and charges at night, a state change now and then, a device asleep a third of the time).
await timed('devices', () =>
  db.execute(sql`
    insert into devices (name, entity, description, mqtt_secret_hash, fw_version, battery)
    select 'h' || lpad(to_hex(d), 11, '0'), 'bench', 'history unit ' || d, 'x', '1.2.0', 50
    from generate_series(1, ${DEVICES}) as d on conflict do nothing`),
);
const perDevice = Math.max(1, Math.floor(POINTS / DEVICES));
const stepS = Math.max(1, Math.floor((DAYS * 86_400) / perDevice));
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const ymd = (t: number) => new Date(t).toISOString().slice(0, 10).replaceAll('-', '');
await timed('telemetry points', async () => {
  for (let day = today - DAYS * DAY_MS; day <= today; day += DAY_MS) {
    const name = `device_telemetry_p${ymd(day)}`;
    const [found] = rowsOf<{ ok: boolean }>(await db.execute(sql`select to_regclass(${name}) is not null as ok`));
    if (!found?.ok) {
      const [lo, hi] = [new Date(day).toISOString(), new Date(day + DAY_MS).toISOString()];
      await db.execute(
        sql.raw(`create table ${name} partition of device_telemetry for values from ('${lo}') to ('${hi}')`),
      );
    }
    const from = Math.max(day, Date.now() - DAYS * DAY_MS);
    const to = Math.min(day + DAY_MS, Date.now());
    if (to <= from) continue;
    await db.execute(sql`
      insert into device_telemetry (entity, device, at, device_at, kind, online, state, battery, is_charging, fw_version)
      select 'bench', 'h' || lpad(to_hex(d), 11, '0'), t, t - interval '2 seconds',
             case when extract(minute from t)::int % 50 = 0 then 'change' else 'report' end,
             (extract(hour from t)::int + d) % 3 <> 0,
             (array['WAITING','ALLOCATED','BOOTING'])[1 + (extract(hour from t)::int / 8 + d) % 3],
             greatest(0, 100 - ((extract(hour from t)::int + d) % 24) * 4)::smallint,
             (extract(hour from t)::int + d) % 24 >= 21,
             '1.2.0'
      from generate_series(1, ${DEVICES}) as d,
           generate_series(${new Date(from).toISOString()}::timestamptz + make_interval(secs => 0),
                           ${new Date(to).toISOString()}::timestamptz - interval '1 millisecond',
                           make_interval(secs => ${stepS})) as t`);
    say(`  day ${ymd(day)} written`);
  }
});
// The hourly sweep rolls up from where it stopped; a backfill older than that is rolled up by
// starting again from the oldest point.
await timed('hourly rollup', async () => {
  await db.execute(sql`delete from telemetry_rollup`);
  await sweepTelemetry(db, { rawDays: 400, hourlyDays: 400 });
});
await timed('analyze', () => db.execute(sql`analyze`));

const [sizes] = rowsOf<{ raw: string; hourly: string; points: string; audit: string; audit_rows: string }>(
  await db.execute(sql`
    select (select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_inherits i join pg_class c on c.oid = i.inhrelid
              where i.inhparent = 'device_telemetry'::regclass)::text as raw,
           (select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_inherits i join pg_class c on c.oid = i.inhrelid
              where i.inhparent = 'device_telemetry_hourly'::regclass)::text as hourly,
           (select count(*) from device_telemetry)::text as points,
           pg_total_relation_size('audit_entries')::text as audit,
           (select count(*) from audit_entries)::text as audit_rows`),
);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(JSON.stringify({ ready: true, fill, sizes, devices: DEVICES }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
