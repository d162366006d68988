// The telemetry flush alone, without a broker (issue 32): opens a fresh database (PGlite in a
// temporary folder unless DATABASE_URL), fills `--devices` devices as bench/mqtt-server.ts does,
// then writes `--rounds` rounds of news for every device through updateDevices (the batcher's
// statement) in chunks of FLUSH_CHUNK, each device's battery changed (as bench/mqtt-clients.mjs
// reports), with a history point each unless `--no-history`. Prints per device row the wall time,
// the process's CPU time (the database's worker thread included) and the WAL bytes, and with
// `--explain` the EXPLAIN (ANALYZE, BUFFERS) of one chunk's statement; `--drop=a,b` drops those
// indexes first (to weigh what each costs a report). Run with `node --import tsx bench/ingest-flush.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQLWrapper } from 'drizzle-orm';

const { openDatabase } = await import('../apps/server/src/db/client.ts');
const { rowsOf } = await import('../apps/server/src/db/raw-sql.ts');
const { updateDevices } = await import('../apps/server/src/domain/telemetry/telemetry-queries.ts');
const { FLUSH_CHUNK } = await import('../apps/server/src/domain/telemetry/telemetry-batcher.ts');
const { seedBenchTenant } = await import('./bench-tenant.ts');

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const N = arg('devices', 10_000);
const ROUNDS = arg('rounds', 5);
const HISTORY = !process.argv.includes('--no-history');
const EXPLAIN = process.argv.includes('--explain');
const DROP = (process.argv.find((a) => a.startsWith('--drop='))?.slice('--drop='.length) ?? '')
  .split(',')
  .filter(Boolean);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ingest-flush-'));
const { db, close } = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: dir });
await seedBenchTenant(db);
await db.execute(sql`
  insert into devices (name, entity, description, mqtt_secret_hash)
  select lpad(to_hex(i), 12, '0'), 'bench', 'mqtt bench unit', md5(i::text)
  from generate_series(1, ${N}) as i on conflict (name) do nothing`);
for (const index of DROP) await db.execute(sql.raw(`drop index if exists "${index}"`));
await db.execute(sql`vacuum analyze devices`);
const names = Array.from({ length: N }, (_, i) => (i + 1).toString(16).padStart(12, '0'));

let battery = 0;
function chunkOf(from: number) {
  const at = new Date();
  return names.slice(from, from + FLUSH_CHUNK).map((name) => {
    const news = { name, state: 'ALLOCATED', battery: battery++ % 101, online: true, seen_at: at.toISOString() };
    const point = { at: news.seen_at, us: 0, kind: 'state' as const, state: news.state, battery: news.battery };
    return HISTORY ? { ...news, points: [point] } : news;
  });
}

const times: number[] = [];
const wal: number[] = [];
const walLsn = async () =>
  rowsOf<{ lsn: string }>(await db.execute(sql`select pg_current_wal_lsn()::text as lsn`))[0]!.lsn;
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const wal0 = await walLsn();
  let rows = 0;
  for (let i = 0; i < N; i += FLUSH_CHUNK) rows += (await updateDevices(db, chunkOf(i))).length;
  const us = ((performance.now() - t0) * 1000) / rows;
  const cpu = process.cpuUsage(cpu0);
  // CPU of the whole process (the database's worker thread included): steadier than wall time on a shared box.
  const cpuUs = (cpu.user + cpu.system) / rows;
  times.push(cpuUs);
  // WAL bytes a row: the write work, the same on a loaded box as on a quiet one.
  const walBytes = Number(
    rowsOf<{ b: string }>(await db.execute(sql`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${wal0}::pg_lsn) as b`))[0]!
      .b,
  );
  wal.push(walBytes / rows);
  console.log(
    `round ${round + 1}: ${rows} rows, ${us.toFixed(0)} µs a row wall, ${cpuUs.toFixed(0)} µs CPU, ${(walBytes / rows).toFixed(0)} WAL bytes`,
  );
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} µs CPU a row, ` +
    `${[...wal].sort((a, b) => a - b)[Math.floor(wal.length / 2)]!.toFixed(0)} WAL bytes (${HISTORY ? 'history' : 'no history'}` +
    `${DROP.length ? `; dropped ${DROP.join(', ')}` : ''}); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
if (EXPLAIN) {
  // The batcher's own statement for one chunk, under EXPLAIN: updateDevices is handed a db whose
  // execute wraps what it is given.
  let plan: string[] = [];
  const explaining = {
    execute: async (query: SQLWrapper) => {
      const result = await db.execute(sql`explain (analyze, buffers, costs off) ${query}`);
      plan = rowsOf<Record<string, string>>(result).map((r) => Object.values(r)[0] ?? '');
      return { rows: [] };
    },
  } as unknown as typeof db;
  await updateDevices(explaining, chunkOf(0));
  console.log(plan.join('\n'));
}
await close();
fs.rmSync(dir, { recursive: true, force: true });
