// The fleet at a million devices (issue 27): fills DEVICES devices over 50 entities with SQL in
// bulk (bench/fleet-million-server.ts), then prints over HTTP, for the entity `bench` (2 % of the
// fleet, 20,000 at a million): p50/p99 of the first and a deep page of every filter and sort,
// the count a filter answers with (`limit=1`), the fleet health screen's data per window for the
// entity and for the superadmin's whole fleet, and the export of the whole fleet (rows/s, RSS).
// PGlite unless DATABASE_URL is set (`scripts/ci/with-services.sh node bench/fleet-million.mjs`).
// Baselines (same run): the unfiltered first page; the server's RSS idle before the export.
// Usage: node bench/fleet-million.mjs [--devices=1000000] [--commands=300000] [--runs=100]
//        [--reuse=<dir>]: keep the filled database in <dir> (made if missing) and, on a later run with
//        the same --devices and --commands, start on it instead of filling again (PGlite: the data
//        directory; PostgreSQL: the database of DATABASE_URL, <dir> holding only the fill's marker).
//        Last-seen times are the fill's: the seen= counts drift as the kept fill ages.
//        [--only=export]: only the export (rows/s, RSS), no list or fleet health reads.
//        [--only=search]: only the list's free text (first, middle and deep page), no other read.
//        [--only=list]: only the list's pages (every filter and sort), no fleet health or export.
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
import fs from 'node:fs';

const DEVICES = arg('devices', 1_000_000);
const COMMANDS = arg('commands', 300_000);
const RUNS = arg('runs', 100);
const REUSE = process.argv.find((a) => a.startsWith('--reuse='))?.slice('--reuse='.length);
const EXPORT_ONLY = process.argv.includes('--only=export');
const SEARCH_ONLY = process.argv.includes('--only=search');
const LIST_ONLY = SEARCH_ONLY || process.argv.includes('--only=list');

const FILTERS = [
  ['no filter', ''],
  ['status=ERROR', 'status=ERROR'],
  ['status=ERROR or DEFECT', 'status=ERROR&status=DEFECT'],
  ['battery=Low', 'battery=Low'],
  ['battery=Charging', 'battery=Charging'],
  ['fw_version=1.2.1', 'fw_version=1.2.1'],
  ['type=CC2', 'type=CC2'],
  ['group=G_07', 'group=G_07'],
  ['seen=unresponsive', 'seen=unresponsive'],
  ['seen=never', 'seen=never'],
  ['seen=online', 'seen=online'],
  ['seen in the last hour', `seen_after=${new Date(Date.now() - 3_600_000).toISOString()}`],
  ['created=30d', 'created=30d'],
  ['search "lobby"', 'search=lobby'],
  ...['updated_at', 'name', 'battery', 'state', 'fw_version', 'group'].map((s) => [
    `sort ${s} asc`,
    `sort=${s}&order=asc`,
  ]),
];

/** Times RUNS requests (after 5 unmeasured); answers p50/p99 and the last body. */
async function timed(label, url, headers, path) {
  const times = [];
  let body;
  for (let i = 0; i < RUNS + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, { headers });
    body = await res.json();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  const r = { p50: percentile(times, 50), p99: percentile(times, 99), body };
  console.error(`[fleet-million] ${label}: p50 ${fmt(r.p50, 'ms')}, p99 ${fmt(r.p99, 'ms')}`);
  return r;
}

/** Streams the superadmin's export of every device (streamExport). */
const exportAll = (url, headers, pid) => streamExport(`${url}/api/v1/device/export?format=csv`, headers, pid);

async function measure(label, env) {
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', 'bench/fleet-million-server.ts'], {
    env: {
      ...env,
      PORT: String(port),
      DATA_DIR: REUSE ?? tmpDir(),
      REUSE: REUSE ? '1' : '',
      DEVICES: String(DEVICES),
      COMMANDS: String(COMMANDS),
    },
  });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const info = await readyLine(child, 'fleet-million server', 3 * 3_600_000);
  const url = `http://${HOST}:${port}`;
  const entity = {
    authorization: `Bearer ${(await login(url, { name: 'bench_admin', password: ADMIN.password })).access_token}`,
  };
  const landlord = { authorization: `Bearer ${(await login(url, ADMIN)).access_token}` };
  const list = (q) => `/api/v1/tenant/bench/device?${q}`;

  const rows = [];
  let baseline;
  for (const [name, q] of EXPORT_ONLY ? [] : FILTERS.filter(([, q]) => !SEARCH_ONLY || q.startsWith('search='))) {
    const first = await timed(`${name}, first page`, url, entity, list(`limit=20&${q}`));
    const total = first.body.total;
    // A page at a share of the total, on a page boundary: the middle is the one read farthest from either end.
    const at = (share) => list(`limit=20&offset=${Math.max(0, Math.floor((total * share) / 20) * 20)}&${q}`);
    baseline ??= first.p99;
    rows.push({
      figure: `${name} (${total.toLocaleString('en-US')}): first page p50 / p99`,
      value: `${fmt(first.p50, 'ms')} / ${fmt(first.p99, 'ms')}`,
      baseline: fmt(baseline, 'ms'),
      ratio: ratio(first.p99, baseline),
      goal: 'p99 ≤ 50 ms',
    });
    for (const [page, share] of [
      ['middle', 0.5],
      ['deep', 0.95],
    ]) {
      const r = await timed(`${name}, ${page} page`, url, entity, at(share));
      rows.push({
        figure: `${name}: ${page} page p50 / p99`,
        value: `${fmt(r.p50, 'ms')} / ${fmt(r.p99, 'ms')}`,
        baseline: fmt(first.p99, 'ms'),
        ratio: ratio(r.p99, first.p99),
        goal: '≤ 1.2× first',
      });
    }
  }
  for (const [name, path, goal] of [
    ['fleet health bench 24 h', '/api/v1/tenant/bench/fleet-health?window=24h', 'p99 ≤ 100 ms'],
    ['fleet health bench 7 d', '/api/v1/tenant/bench/fleet-health?window=7d', 'p99 ≤ 100 ms'],
    ['fleet health bench 30 d', '/api/v1/tenant/bench/fleet-health?window=30d', 'p99 ≤ 100 ms'],
    ['fleet health, whole fleet 24 h', '/api/v1/fleet-health?window=24h', 'p99 ≤ 300 ms'],
    ['fleet health, whole fleet 30 d', '/api/v1/fleet-health?window=30d', 'p99 ≤ 300 ms'],
  ].filter(() => !EXPORT_ONLY && !LIST_ONLY)) {
    const r = await timed(name, url, path.includes('tenant') ? entity : landlord, path);
    rows.push({
      figure: `${name} p50 / p99`,
      value: `${fmt(r.p50, 'ms')} / ${fmt(r.p99, 'ms')}`,
      baseline: fmt(baseline, 'ms'),
      ratio: ratio(r.p99, baseline),
      goal,
    });
  }
  const exp = LIST_ONLY ? undefined : await exportAll(url, landlord, child.pid);
  if (exp) rows.push(...exportFigures(exp, 'devices (CSV)'));
  const f = info.fill;
  printTable(
    `${label}: ${DEVICES.toLocaleString('en-US')} devices over 50 entities, ${COMMANDS.toLocaleString('en-US')} commands (fill: devices ${fmt(f.devices / 1000, 's')}, snapshot ${fmt(f['daily snapshot (30 days, 50 entities)'] / 1000, 's')}); ${RUNS} requests each over HTTP`,
    rows,
  );
  child.kill('SIGTERM');
}

if (REUSE) fs.mkdirSync(REUSE, { recursive: true });
await main(async () => {
  if (process.env.DATABASE_URL) await measure('PostgreSQL', { DATABASE_URL: process.env.DATABASE_URL });
  else await measure('PGlite (embedded)', { DATABASE_URL: '' });
});
