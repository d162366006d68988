// Compares three ways for the server to reach its embedded PGlite, measured from the main thread:
// in-process (the baseline), route A (PGlite in a worker thread, queries by postMessage: what
// Drizzle's proxy driver would send) and route B (PGlite in a worker serving the PostgreSQL
// protocol on a Unix socket, node-postgres in the main thread, as in scale mode).
// Figures: a point read p50/p99, a 50-row page p50, a 2,000-row telemetry-style UPDATE (what one
// flush does), and the main thread's event-loop delay p99/max during the UPDATEs.
// Usage: node bench/db-routes.mjs [--socket-module=PATH to @electric-sql/pglite-socket's dist/index.js]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { fmt, percentile, printTable, ratio } from './report.mjs';

const arg = (name, def) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const socketModule = arg('socket-module', '@electric-sql/pglite-socket');
const ROWS = 10_000;
const READS = Number(arg('reads', 2000));
const FLUSHES = Number(arg('flushes', 20));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-dbroutes-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

const SCHEMA = `create table d (name text primary key, entity text, battery int, state jsonb, updated_at timestamptz default now());
insert into d select lpad(to_hex(i), 12, '0'), 'e' || (i % 10), i % 100, '{}'::jsonb from generate_series(1, ${ROWS}) i;`;

// Prepare one data dir with the table; each route copies it.
{
  const db = await PGlite.create(path.join(tmp, 'seed'), { extensions: { pg_trgm } });
  await db.exec(SCHEMA);
  await db.close();
}

async function measure(label, query) {
  const names = Array.from({ length: READS }, (_, i) => ((i * 7919) % ROWS) + 1).map((i) =>
    i.toString(16).padStart(12, '0'),
  );
  for (let i = 0; i < 200; i++) await query('select * from d where name = $1', [names[i]]); // warm-up
  const reads = [];
  for (const n of names) {
    const t = performance.now();
    await query('select * from d where name = $1', [n]);
    reads.push(performance.now() - t);
  }
  const pages = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await query('select * from d where entity = $1 order by battery desc, name limit 50 offset $2', [
      `e${i % 10}`,
      i * 3,
    ]);
    pages.push(performance.now() - t);
  }
  // The main thread's delay: gaps between the ticks of a 1 ms timer, less the 1 ms.
  const gaps = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last - 1);
    last = now;
  }, 1);
  const flushes = [];
  for (let f = 0; f < FLUSHES; f++) {
    const batch = Array.from({ length: 2000 }, (_, i) => ({
      name: (((f * 2000 + i) % ROWS) + 1).toString(16).padStart(12, '0'),
      battery: (f + i) % 100,
      state: { s: 'idle', n: f },
    }));
    const t = performance.now();
    await query(
      `update d set battery = v.battery, state = v.state, updated_at = now() from jsonb_to_recordset($1::jsonb) as v(name text, battery int, state jsonb) where d.name = v.name`,
      [JSON.stringify(batch)],
    );
    flushes.push(performance.now() - t);
    // The server goes back to its event loop between two flushes.
    await new Promise((r) => setImmediate(r));
  }
  clearInterval(ticker);
  return {
    label,
    read50: percentile(reads, 50),
    read99: percentile(reads, 99),
    page50: percentile(pages, 50),
    flush50: percentile(flushes, 50),
    lag99: percentile(gaps, 99),
    lagMax: Math.max(...gaps),
  };
}

function copy(name) {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(tmp, 'seed'), dir, { recursive: true });
  return dir;
}

async function inProcess() {
  const db = await PGlite.create(copy('inproc'), { extensions: { pg_trgm } });
  const r = await measure('in-process PGlite (baseline)', (sql, params) => db.query(sql, params));
  await db.close();
  return r;
}

async function startWorker(route, extra = {}) {
  const worker = new Worker(new URL('./db-routes-worker.mjs', import.meta.url), {
    workerData: { dir: copy(route), route, socketModule, ...extra },
  });
  await new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m) => m.ready && resolve());
  });
  return worker;
}

async function routeA() {
  const worker = await startWorker('proxy');
  let next = 0;
  const waiting = new Map();
  worker.on('message', (m) => {
    if (m.id === undefined) return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w.reject(new Error(m.error));
    else w.resolve(m.rows);
  });
  const query = (sql, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, sql, params });
    });
  const r = await measure('A: worker + postMessage proxy', query);
  await worker.terminate();
  return r;
}

async function routeB() {
  const sockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-sock-'));
  const socketPath = path.join(sockDir, '.s.PGSQL.5432');
  const worker = await startWorker('socket', { socketPath });
  const pool = new pg.Pool({ host: sockDir, port: 5432, user: 'postgres', database: 'postgres', max: 1 });
  const r = await measure('B: worker + pglite-socket + pg', (sql, params) => pool.query(sql, params));
  await pool.end();
  await worker.terminate();
  fs.rmSync(sockDir, { recursive: true, force: true });
  return r;
}

const results = [await inProcess(), await routeA()];
try {
  results.push(await routeB());
} catch (err) {
  console.log(`route B not measured (${err.message}); pass --socket-module=PATH`);
}
const [base, ...routes] = results;
const FIGURES = [
  ['point read p50', 'read50'],
  ['point read p99', 'read99'],
  ['50-row page p50', 'page50'],
  ['2,000-row UPDATE p50', 'flush50'],
  ['main-thread loop delay p99 during UPDATEs', 'lag99'],
  ['main-thread loop delay max during UPDATEs', 'lagMax'],
];
for (const r of routes) {
  printTable(
    `${r.label} (baseline: ${base.label})`,
    FIGURES.map(([figure, key]) => ({
      figure,
      value: fmt(r[key], 'ms', 2),
      baseline: fmt(base[key], 'ms', 2),
      ratio: ratio(r[key], base[key]),
    })),
  );
}
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
