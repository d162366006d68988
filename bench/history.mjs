// History at scale (issue 26): fills audit entries and telemetry points with SQL in bulk
// (bench/history-server.ts) and prints over HTTP the p50/p99 of filtered audit pages and of a
// device's 24 h / 7 d / 30 d battery chart, the export of every audit entry (rows/s and the
// server's RSS while it streams), and the database's size per million points. PGlite unless
// DATABASE_URL is set (`scripts/ci/with-services.sh node bench/history.mjs`).
// Baselines (same run): the first unfiltered audit page; the server's RSS idle before the export.
// Usage: node bench/history.mjs [--audit=1000000] [--points=10000000] [--devices=4000] [--runs=100]
//        [--data-dir=<path>]: PGlite's files there, kept; a later run with the same path (and the
//        same or smaller --audit) measures that fill again instead of making a new one.
import {
  ADMIN,
  HOST,
  arg,
  fmt,
  freePort,
  login,
  main,
  percentile,
  printTable,
  ratio,
  readyLine,
  spawnNode,
  tmpDir,
} from './lib.mjs';
import { exportFigures, streamExport } from './export-stream.mjs';

const AUDIT = arg('audit', 1_000_000);
const POINTS = arg('points', 10_000_000);
const DEVICES = arg('devices', 4_000);
const RUNS = arg('runs', 100);
const DAY = 86_400_000;
const DATA_DIR = process.argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);

const iso = (msAgo) => new Date(Date.now() - msAgo).toISOString();
const AUDIT_QUERIES = [
  ['first page (50, newest first)', 'limit=50'],
  ['action=device.update', 'limit=50&action=device.update'],
  ['actor=user_7', 'limit=50&actor=user_7'],
  ['target device unit_42', 'limit=50&target_type=device&target_name=unit_42'],
  ['outcome=failure', 'limit=50&outcome=failure'],
  ['one week, half a year ago', `limit=50&from=${iso(190 * DAY)}&to=${iso(183 * DAY)}`],
  ['action + actor + last 30 days', `limit=50&action=command.send&actor=user_8&from=${iso(30 * DAY)}`],
  ['free text "unit_42"', 'limit=50&search=unit_42'],
  ['page 100 (offset 4,950)', 'limit=50&offset=4950'],
];
const CHARTS = [
  ['24 h (raw points)', DAY],
  ['7 d (hourly buckets)', 7 * DAY],
  ['30 d (hourly buckets)', 30 * DAY],
];

/** Times RUNS requests (after 5 unmeasured); prints the figure at once, so a later failure loses nothing. */
async function timeRequests(label, url, headers, paths) {
  const times = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const path = paths(i);
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  const result = { p50: percentile(times, 50), p99: percentile(times, 99) };
  console.error(`[history] ${label}: p50 ${fmt(result.p50, 'ms')}, p99 ${fmt(result.p99, 'ms')}`);
  return result;
}

/** Streams the landlord's whole audit export (streamExport). */
async function exportAll(url, headers, pid) {
  const exp = await streamExport(`${url}/api/v1/audit/export?format=csv`, headers, pid);
  console.error(
    `[history] export: ${exp.rows} rows in ${exp.seconds.toFixed(1)} s, RSS ${exp.idle.toFixed(0)} → ${exp.peak.toFixed(0)} MB`,
  );
  return exp;
}

async function measure(label, env) {
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', 'bench/history-server.ts'], {
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: DATA_DIR ?? tmpDir(),
      REUSE: DATA_DIR ? '1' : '0',
      AUDIT: String(AUDIT),
      POINTS: String(POINTS),
      DEVICES: String(DEVICES),
    },
  });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  // The fill of a hundred million points takes many minutes.
  const info = await readyLine(child, 'history server', 3 * 3_600_000);
  const url = `http://${HOST}:${port}`;
  const admin = await login(url, { name: 'bench_admin', password: ADMIN.password });
  const entityHeaders = { authorization: `Bearer ${admin.access_token}` };
  const landlord = await login(url, ADMIN);
  const landlordHeaders = { authorization: `Bearer ${landlord.access_token}` };

  const audit = [];
  for (const [name, query] of AUDIT_QUERIES) {
    audit.push({
      name,
      ...(await timeRequests(`audit ${name}`, url, entityHeaders, () => `/api/v1/tenant/bench/audit?${query}`)),
    });
  }
  // The superadmin's free text reads every entity's entries (GET /api/v1/audit).
  audit.push({
    name: 'free text "unit_42", every entity (superadmin)',
    ...(await timeRequests(
      'audit free text, every entity',
      url,
      landlordHeaders,
      () => '/api/v1/audit?limit=50&search=unit_42',
    )),
  });
  const device = (i) => `h${(((i * 7919) % info.devices) + 1).toString(16).padStart(11, '0')}`;
  const charts = [];
  for (const [name, span] of CHARTS) {
    const r = await timeRequests(
      `chart ${name}`,
      url,
      entityHeaders,
      (i) => `/api/v1/tenant/bench/device/${device(i)}/telemetry?from=${iso(span)}`,
    );
    charts.push({ name, ...r });
  }
  const exp = await exportAll(url, landlordHeaders, child.pid);
  const first = audit[0];
  const points = Number(info.sizes.points);
  const f = { 'audit entries': 0, 'telemetry points': 0, 'hourly rollup': 0, ...info.fill };
  printTable(
    `${label}: ${Number(info.sizes.audit_rows).toLocaleString('en-US')} audit entries, ${points.toLocaleString('en-US')} telemetry points of ${info.devices.toLocaleString('en-US')} devices (fill: audit ${fmt(f['audit entries'] / 1000, 's')}, points ${fmt(f['telemetry points'] / 1000, 's')}, rollup ${fmt(f['hourly rollup'] / 1000, 's')}); ${RUNS} requests each over HTTP`,
    [
      ...audit.map((r) => ({
        figure: `audit ${r.name} p50 / p99`,
        value: `${fmt(r.p50, 'ms')} / ${fmt(r.p99, 'ms')}`,
        baseline: fmt(first.p99, 'ms'),
        ratio: ratio(r.p99, first.p99),
        goal: r.name.startsWith('first') || r.name.startsWith('page') ? '' : 'p99 ≤ 50 ms',
      })),
      ...charts.map((r) => ({
        figure: `battery chart ${r.name} p50 / p99`,
        value: `${fmt(r.p50, 'ms')} / ${fmt(r.p99, 'ms')}`,
        baseline: fmt(first.p99, 'ms'),
        ratio: ratio(r.p99, first.p99),
        goal: r.name.startsWith('30') ? 'p99 ≤ 50 ms' : '',
      })),
      ...exportFigures(exp, `audit rows (CSV, ${fmt(exp.bytes / 1e6, 'MB')})`),
      {
        figure: 'raw telemetry size per million points',
        value: fmt(Number(info.sizes.raw) / 1e6 / (points / 1e6), 'MB'),
        baseline: '',
        ratio: '',
        goal: '',
      },
      {
        figure: 'hourly aggregates, whole table',
        value: fmt(Number(info.sizes.hourly) / 1e6, 'MB'),
        baseline: '',
        ratio: '',
        goal: '',
      },
      {
        figure: 'audit table per million entries',
        value: fmt(Number(info.sizes.audit) / 1e6 / (Number(info.sizes.audit_rows) / 1e6), 'MB'),
        baseline: '',
        ratio: '',
        goal: '',
      },
    ],
  );
  child.kill('SIGTERM');
}

await main(async () => {
  if (process.env.DATABASE_URL) await measure('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL });
  else await measure('PGlite (embedded)', { DATABASE_URL: '' });
});
