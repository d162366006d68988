// Child process for bench/device-list.mjs (run with `node --import tsx`): the real app on
// 127.0.0.1:PORT with entity `bench`, its admin, and N devices filled with one SQL statement.
// Prints one JSON line {ready, fillMs} once listening. DATABASE_URL selects PostgreSQL.
import { sql } from 'drizzle-orm';

const { build } = await import('../apps/server/src/app.ts');
const { loadConfig } = await import('../apps/server/src/config.ts');
const { BENCH_PASSWORD, seedBenchTenant } = await import('./bench-tenant.ts');

const n = Number(process.env.DEVICES ?? 100_000);
const config = loadConfig({
  DATA_DIR: process.env.DATA_DIR,
  ADMIN_PASSWORD: BENCH_PASSWORD,
  LOG_LEVEL: 'silent',
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
const app = await build(config, { logger: false });
await seedBenchTenant(app.db, ['bench', 'other']);

// A realistic spread: 8 states and none, batteries 0–100 and unknown, a tenth charging, 12
// firmware versions, creation over two years, 5 % of rows in another entity.
// 50 groups in each entity; nine devices in ten stand in one (G_00…G_49), which is also their
// last dispenser, so the Groups column and filter work on a fleet organised as a real one is.
const started = performance.now();
await app.db.execute(sql`
  insert into groups (entity, name, capacity)
  select e, 'G_' || lpad(g::text, 2, '0'), 5000
  from unnest(array['bench', 'other']) as e, generate_series(0, 49) as g
  on conflict do nothing`);
await app.db.execute(sql`
  insert into devices (name, entity, description, state_current, battery, is_charging, fw_version,
                       "group", last_dispenser, mqtt_secret_hash, created_at, updated_at)
  select lpad(to_hex(i), 12, '0'),
         case when i % 20 = 0 then 'other' else 'bench' end,
         'unit ' || i || case when i % 97 = 0 then ' lobby' else '' end,
         (array['ALLOCATED','PROVISIONING','DFU','ERROR','DEFECT','UNAVAILABLE','BOOTING','WAITING',null])[1 + i % 9],
         case when i % 13 = 0 then null else (i * 37) % 101 end,
         i % 10 = 0,
         '1.' || (i % 4) || '.' || (i % 3),
         case when i % 10 = 3 then null else 'G_' || lpad((i % 50)::text, 2, '0') end,
         case when i % 10 = 3 then null else 'G_' || lpad((i % 50)::text, 2, '0') end,
         'x',
         now() - make_interval(mins => (i * 7) % (2 * 365 * 24 * 60)),
         now() - make_interval(secs => i % 7200)
  from generate_series(1, ${n}) as i
  on conflict do nothing`);
await app.db.execute(sql`analyze devices`);
await app.db.execute(sql`analyze groups`);
const fillMs = performance.now() - started;

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(JSON.stringify({ ready: true, fillMs }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
