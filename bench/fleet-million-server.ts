// Child process for bench/fleet-million.mjs (run with `node --import tsx`): the real app on
// 127.0.0.1:PORT with DEVICES devices over 50 entities (`bench` and e01…e49, 2 % each), made
// with SQL in bulk: states, batteries, charging, firmware of two types, two years of ages, 50
// groups per entity, last-seen times from seconds to weeks, a tenth online, some never seen;
// COMMANDS commands and a tenth as many provisioning sessions over the last 30 days; then the
// daily fleet snapshot as the sweep takes it. Prints one JSON line {ready, fill} once listening.
// DATABASE_URL selects PostgreSQL. REUSE=1: when DATA_DIR holds a finished fill (its
// fleet-million-fill.json and devices in the database), the fill is skipped and its times reported.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';

const { sweepFleetDaily } = await import('../apps/server/src/domain/fleet-health/fleet-daily-sweep.ts');
const { FIFTY_ENTITIES: ENTITIES, benchApp, entityOf } = await import('./bench-app.ts');

const DEVICES = Number(process.env.DEVICES ?? 1_000_000);
const COMMANDS = Number(process.env.COMMANDS ?? 300_000);

const app = await benchApp(String(process.env.DATA_DIR));
const db = app.db;
const marker = path.join(String(process.env.DATA_DIR), 'fleet-million-fill.json');
const kept =
  process.env.REUSE === '1' &&
  fs.existsSync(marker) &&
  (await db.execute(sql`select 1 from devices limit 1`)).rows.length
    ? (JSON.parse(fs.readFileSync(marker, 'utf8')) as {
        fill: Record<string, number>;
        devices: number;
        commands: number;
      })
    : undefined;
if (kept && (kept.devices !== DEVICES || kept.commands !== COMMANDS))
  throw new Error(
    `${marker} holds ${kept.devices} devices and ${kept.commands} commands, not ${DEVICES} and ${COMMANDS}`,
  );
const fill: Record<string, number> = kept?.fill ?? {};
const timed = async (name: string, work: () => Promise<unknown>) => {
  const t0 = performance.now();
  await work();
  fill[name] = Math.round(performance.now() - t0);
  console.error(`[fleet-million-server] ${name}: ${(fill[name] / 1000).toFixed(1)} s`);
};

if (kept) console.error(`[fleet-million-server] reusing the fill in ${marker}`);
else {
  await timed('groups', () =>
    db.execute(sql`
      insert into groups (entity, name, capacity)
      select e, 'G_' || lpad(g::text, 2, '0'), 5000 from unnest(${sql.raw(`array[${ENTITIES.map((e) => `'${e}'`).join(',')}]`)}) as e,
        generate_series(0, 49) as g
      on conflict do nothing`),
  );
  // Device i is in entity i % 50; within it, the spread of bench/device-server.ts.
  await timed('devices', () =>
    db.execute(sql`
      insert into devices (name, entity, description, manufacturing_type, state_current, battery, is_charging,
                           fw_version, online, "group", last_dispenser, mqtt_secret_hash, created_at, updated_at)
      select lpad(to_hex(i), 12, '0'), ${entityOf('i')}, 'unit ' || i || case when i % 97 = 0 then ' lobby' else '' end,
        case when i % 3 = 0 then 'CC2' else 'CC1' end,
        (array['ALLOCATED','PROVISIONING','DFU','ERROR','DEFECT','UNAVAILABLE','BOOTING','WAITING',null])[1 + (i / 50) % 9],
        case when i % 13 = 0 then null else (i * 37) % 101 end, (i / 50) % 10 = 0,
        '1.' || ((i / 50) % 4) || '.' || (i % 3), (i / 50) % 10 = 1,
        case when (i / 50) % 10 = 3 then null else 'G_' || lpad(((i / 50) % 50)::text, 2, '0') end,
        case when (i / 50) % 10 = 3 then null else 'G_' || lpad(((i / 50) % 50)::text, 2, '0') end,
        'x', c, case when (i / 50) % 25 = 7 then c else now() - make_interval(secs => (i * 13) % (21 * 86400)) end
      from generate_series(1, ${DEVICES}) as i, lateral (select now() - make_interval(mins => (i * 7) % (2 * 365 * 24 * 60)) as c) x
      on conflict do nothing`),
  );
  await timed('commands', () =>
    db.execute(sql`
      insert into commands (id, device, entity, type, payload, target, state, sent_by, created_at, replied_at, expires_at)
      select gen_random_uuid(), lpad(to_hex(d), 12, '0'), ${entityOf('d')},
        case when i % 10 = 0 then 'dfu' else 'refresh' end, '{"version":"1.3.0"}', 'device',
        (array['succeeded','succeeded','succeeded','failed','timed_out','expired'])[1 + i % 6], 'admin', t, t + interval '4 seconds', t + interval '1 hour'
      from generate_series(1, ${COMMANDS}) as i,
        lateral (select (1 + (i::bigint * 7919) % ${DEVICES})::int as d, now() - make_interval(secs => (i * 8.64 * 1e6 / ${COMMANDS}) % (30 * 86400)) as t) x`),
  );
  await timed('provisioning sessions', () =>
    db.execute(sql`
      insert into provision_sessions (id, entity, device, status, started_by, created_at, heard_at, ended_at)
      select gen_random_uuid(), ${entityOf('d')}, lpad(to_hex(d), 12, '0'),
        (array['provision_completed','provision_failed','timeout'])[1 + i % 3], 'admin', t, t, t + interval '5 minutes'
      from generate_series(1, ${Math.floor(COMMANDS / 10)}) as i,
        lateral (select (1 + (i::bigint * 104729) % ${DEVICES})::int as d, now() - make_interval(secs => (i * 86.4 * 1e6 / ${COMMANDS}) % (30 * 86400)) as t) x`),
  );
  await timed('analyze', () => db.execute(sql`analyze`));
  await timed('daily snapshot (30 days, 50 entities)', () => sweepFleetDaily(db, 400));
  fs.writeFileSync(
    marker,
    JSON.stringify({ fill, devices: DEVICES, commands: COMMANDS, at: new Date().toISOString() }),
  );
}

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(JSON.stringify({ ready: true, fill, devices: DEVICES }));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
