// Backups of the embedded default (issue 30): `npm run backup` of a running server, `npm run
// restore` of its archive into an empty directory, and a server started on what was restored.
//
// 1. The demo under its own simulated load: `npm run demo` on a temporary DATA_DIR and free ports
//    (its 47 simulated dispensers report, the beacon gateways and the two rollouts run); after
//    --warm seconds a backup is taken while they go on, restored, the built server started on it,
//    and backed up again: every table must hold the rows the first manifest counted.
// 2. --devices (default 100,000) devices, commands and provisioning sessions filled with SQL
//    (bench/fleet-million-server.ts): the backup's time and size, the pause it imposes, the
//    restore's time, and the device list's p50/p99 during the backup beside the same list before
//    it (the baseline).
//
// Usage: node bench/backup.mjs [--devices=100000] [--warm=20] [--skip-demo=1] [--skip-fleet=1]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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
  startDistServer,
  stop,
  tmpDir,
} from './lib.mjs';

const DEVICES = arg('devices', 100_000);
const WARM_S = arg('warm', 20);

/** `npm run backup` against DATA_DIR; answers its wall time, the archive's size and its manifest. */
async function backup(dataDir, out) {
  const t0 = performance.now();
  const r = await runNode(['scripts/backup.mjs', out], { DATA_DIR: dataDir });
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`npm run backup failed:\n${r.output}`);
  const manifest = JSON.parse(await untar(out, 'manifest.json'));
  const pausedMs = Number(r.output.match(/paused (\d+) ms/)?.[1]);
  return { ms, bytes: fs.statSync(out).size, manifest, pausedMs };
}

/** `npm run restore` of `file` into the empty `dataDir`; answers its wall time. */
async function restore(file, dataDir) {
  const t0 = performance.now();
  const r = await runNode(['scripts/restore.mjs', file], { DATA_DIR: dataDir });
  if (r.code !== 0) throw new Error(`npm run restore failed:\n${r.output}`);
  return performance.now() - t0;
}

/** Runs `node ...args` from the repository root to its end (lib's spawnNode); answers its exit code and output. */
async function runNode(args, env) {
  const child = spawnNode(args, { env });
  const { code } = await child.exited;
  return { code, output: child.output };
}

function untar(file, entry) {
  return new Promise((resolve, reject) => {
    const tar = spawn('tar', ['-xzOf', file, entry]);
    let text = '';
    tar.stdout.on('data', (c) => (text += c));
    tar.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`tar -x ${entry}: ${code}`))));
  });
}

/** GETs `path` every 20 ms until `until` settles; answers the latencies and the failures. */
async function readWhile(url, headers, until) {
  const times = [];
  let failed = 0;
  let done = false;
  void until.finally(() => (done = true));
  while (!done) {
    const t0 = performance.now();
    const res = await fetch(url, { headers }).catch(() => null);
    if (res?.status === 200) {
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    } else failed++;
    await new Promise((r) => setTimeout(r, 20));
  }
  await until;
  return { times, failed };
}

const seconds = (ms) => fmt(ms / 1000, 's');
const megabytes = (bytes) => fmt(bytes / 1e6, 'MB');

/**
 * Tables with fewer rows in `after` than in `before` (lost), and with more (written by the restored
 * server as it started: e.g. each device that was online gets its offline point).
 */
function compareRows(before, after) {
  const tables = Object.keys(before);
  const show = (t) => `${t}: ${before[t]} → ${after[t] ?? 'missing'}`;
  return {
    lost: tables.filter((t) => !(after[t] >= before[t])).map(show),
    added: tables.filter((t) => after[t] > before[t]).map(show),
  };
}

/** The table's rows for the device list during the backup (beside before it) and the restore. */
function servedAndRestored(before, during, restoreMs) {
  const p = (r, n) => percentile(r.times, n);
  return [
    {
      figure: 'device list p50 / p99 during the backup (failed)',
      value: `${fmt(p(during, 50), 'ms')} / ${fmt(p(during, 99), 'ms')} (${during.failed})`,
      baseline: `${fmt(p(before, 50), 'ms')} / ${fmt(p(before, 99), 'ms')} before`,
      ratio: ratio(p(during, 99), p(before, 99)),
      goal: 'no failure',
    },
    { figure: 'restore into an empty directory', value: seconds(restoreMs), baseline: '—', ratio: '—', goal: '—' },
  ];
}

async function demo() {
  const dataDir = tmpDir('fleet-bench-demo-');
  const [port, mqttPort] = [await freePort(), await freePort()];
  const child = spawnNode(['scripts/demo.mjs'], {
    env: { DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(mqttPort), ADMIN_PASSWORD: ADMIN.password },
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start in 5 minutes:\n${child.output}`)), 300_000);
    child.stdout.on('data', () => child.stdoutText.includes('Stop with Ctrl-C') && (clearTimeout(timer), resolve()));
    child.on('exit', (code) => reject(new Error(`the demo exited ${code}:\n${child.output}`)));
  });
  console.error(`[backup] the demo runs; ${WARM_S} s of its simulated load before the backup`);
  await new Promise((r) => setTimeout(r, WARM_S * 1000));
  const url = `http://${HOST}:${port}`;
  const headers = { authorization: `Bearer ${(await login(url, ADMIN)).access_token}` };
  const list = `${url}/api/v1/device?limit=20`;
  const before = await readWhile(list, headers, new Promise((r) => setTimeout(r, 3000)));
  const out = path.join(tmpDir('fleet-bench-archive-'), 'demo.tar.gz');
  const taking = backup(dataDir, out);
  const during = await readWhile(list, headers, taking);
  const first = await taking;
  await stop(child, 15_000);

  const restored = path.join(tmpDir('fleet-bench-restored-'), 'data');
  const restoreMs = await restore(out, restored);
  const server = await startDistServer({ env: { DATA_DIR: restored } });
  const again = await backup(restored, path.join(path.dirname(out), 'again.tar.gz'));
  await stop(server.child);
  const { lost, added } = compareRows(first.manifest.rows, again.manifest.rows);
  const r = first.manifest.rows;
  printTable(`npm run demo under its simulated load, backed up at ${first.manifest.createdAt}`, [
    {
      figure: `backup (devices ${r.devices}, files ${r.files}, history points ${r.device_telemetry}, audit ${r.audit_entries})`,
      value: seconds(first.ms),
      baseline: `database paused ${fmt(first.pausedMs, 'ms', 0)}`,
      ratio: '—',
      goal: '—',
    },
    { figure: 'archive', value: megabytes(first.bytes), baseline: '—', ratio: '—', goal: '—' },
    ...servedAndRestored(before, during, restoreMs),
    {
      figure: 'tables with rows lost after the restore',
      value: lost.length ? lost.join('; ') : 'none',
      baseline: `${Object.keys(r).length} tables`,
      ratio: '—',
      goal: 'none',
    },
    {
      figure: 'rows the restored server wrote as it started',
      value: added.length ? added.join('; ') : 'none',
      baseline: '—',
      ratio: '—',
      goal: '—',
    },
  ]);
  if (lost.length) process.exitCode = 1;
}

async function fleet() {
  const port = await freePort();
  const dataDir = tmpDir('fleet-bench-fleet-');
  const child = spawnNode(['--import', 'tsx', 'bench/fleet-million-server.ts'], {
    env: { PORT: String(port), DATA_DIR: dataDir, DEVICES: String(DEVICES), COMMANDS: String(DEVICES / 2) },
  });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  await readyLine(child, 'fleet server', 3_600_000);
  const url = `http://${HOST}:${port}`;
  const headers = { authorization: `Bearer ${(await login(url, ADMIN)).access_token}` };
  const list = `${url}/api/v1/device?limit=20`;
  const before = await readWhile(list, headers, new Promise((r) => setTimeout(r, 5000)));
  const out = path.join(tmpDir('fleet-bench-archive-'), 'fleet.tar.gz');
  const taking = backup(dataDir, out);
  const during = await readWhile(list, headers, taking);
  const taken = await taking;
  await stop(child, 15_000);
  const restored = path.join(tmpDir('fleet-bench-restored-'), 'data');
  const restoreMs = await restore(out, restored);
  const r = taken.manifest.rows;
  printTable(`backup of ${DEVICES.toLocaleString('en-US')} devices (fleet-million-server's fill)`, [
    {
      figure: `backup (devices ${r.devices}, commands ${r.commands}, sessions ${r.provision_sessions})`,
      value: seconds(taken.ms),
      baseline: `database paused ${fmt(taken.pausedMs, 'ms', 0)}`,
      ratio: '—',
      goal: '—',
    },
    {
      figure: 'archive (database files before gzip)',
      value: megabytes(taken.bytes),
      baseline: megabytes(taken.manifest.sizes.database),
      ratio: ratio(taken.bytes, taken.manifest.sizes.database, true),
      goal: '—',
    },
    ...servedAndRestored(before, during, restoreMs),
  ]);
}

await main(async () => {
  if (!arg('skip-demo', 0)) await demo();
  if (!arg('skip-fleet', 0)) await fleet();
});
