// The MQTT side at fleet scale: 10,000 simulated devices connect to the server's embedded broker
// and publish QoS 1 state reports flat out; prints the messages/s that reach the database, the
// command round trip at a steady 200/s, and the server's memory. Baselines in the same run: a bare
// Aedes broker with one in-process subscriber (same clients, same load), and a GET of a device at
// the same rate. Server (bench/mqtt-server.ts) in a child process; the devices are mqtt.js
// clients on worker threads of this process (bench/mqtt-clients.mjs). PGlite unless --pg.
// Usage: node bench/mqtt.mjs [--devices=10000] [--threads=4] [--connect-rate=500] [--duration=15]
//   [--window=100] [--command-rate=200] [--command-seconds=15] [--repliers=200] [--pg] [--cpu-prof]
//   [--metrics]: the app once more with METRICS_TOKEN, /metrics scraped every second; its counters
//   beside the bench's own, and ingest and command p99 with metrics on vs off (bench/mqtt-metrics.mjs).
//   [--history]: the app once more with its telemetry history off (the batcher's `history` switch);
//   messages/s into the database with history written vs not, and the history rows written.
//   [--commands-only]: no bare Aedes, no ingest: the app connects the fleet and measures only the
//   command round trip (after its GET device baseline), metrics off then on (scraped), --rounds=N
//   times alternated (default 2: off on off on); command p50/p99 and server CPU per command at
//   --quiet-rate=50 first (a rate the server keeps up with: 0 skips it) and then at --command-rate,
//   metrics on vs off, and one scrape's time (bench/mqtt-commands.mjs). About 2 minutes.
//   [--ingest-only]: bare Aedes and the app, connect and ingest, no command round trip (the growth
//   table's runs at 1,000–18,000 devices; 18,000 needs `ulimit -n` ≥ 19,024 and --connect-rate=1000).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  HOST,
  arg,
  cpuTimeMs,
  fmt,
  freePort,
  loadavg,
  login,
  main,
  percentile,
  readyLine,
  root,
  spawnNode,
  stop,
  tmpDir,
} from './lib.mjs';
import { Fleet, acceptQueueLength, checkFdLimit, listenOverflows, openLoop } from './mqtt-load.mjs';
import { printHistoryReport, printReport } from './mqtt-report.mjs';
import { METRICS_TOKEN, printMetricsReport, startScraper } from './mqtt-metrics.mjs';
import { printCommandsReport } from './mqtt-commands.mjs';

const N = arg('devices', 10_000);
const THREADS = arg('threads', 4);
const CONNECT_RATE = arg('connect-rate', 500); // connects/s, all threads together
const DURATION = arg('duration', 15); // s of flat-out publishing per broker
const WINDOW = arg('window', 100); // unacknowledged QoS 1 publishes per thread
const COMMAND_RATE = arg('command-rate', 200);
// --commands-only: first at a rate that leaves the server room (0: not), where a small cost shows.
const QUIET_RATE = arg('quiet-rate', 50);
const COMMAND_SECONDS = arg('command-seconds', 15);
const REPLIERS = Math.min(N, arg('repliers', 200)); // devices that answer commands
const WARMUP = 2; // s of requests before each command measurement, dropped
const FLUSH_WAIT_MS = 30_000; // how long the telemetry may take to reach the database after the last ack
const PG = process.argv.includes('--pg');
const CPU_PROF = process.argv.includes('--cpu-prof');
const METRICS = process.argv.includes('--metrics');
const HISTORY = process.argv.includes('--history');
const COMMANDS_ONLY = process.argv.includes('--commands-only');
const INGEST_ONLY = process.argv.includes('--ingest-only');
const ROUNDS = arg('rounds', 2);
const SCRAPE_EVERY_MS = 1000;
const PROFILES = path.join(root, 'bench/profiles');

/** Starts bench/mqtt-server.ts in `mode` ('app' | 'aedes'); resolves once both its ports listen. */
async function startSide(mode, { metrics = false, history = true } = {}) {
  const port = await freePort();
  // --cpu-prof: Node's own profiler too, which in Node 20 writes one profile per thread at exit,
  // the database's worker thread included (the window's own profile covers only the main thread).
  const threadProfiles = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILES, `threads-${port}`)}`] : [];
  const child = spawnNode(
    ['--expose-gc', ...threadProfiles, '--import', 'tsx', path.join(root, 'bench/mqtt-server.ts')],
    {
      env: {
        MODE: mode,
        PORT: String(port),
        DATA_DIR: tmpDir('fleet-bench-mqtt-'),
        DEVICES: String(N),
        DATABASE_URL: PG ? process.env.DATABASE_URL : '',
        METRICS_TOKEN: metrics ? METRICS_TOKEN : '',
        HISTORY: history ? '' : 'off',
      },
    },
  );
  const ready = await readyLine(child, `${mode} server`);
  const url = `http://${HOST}:${port}`;
  const call = async (p, method = 'GET', timeoutMs = 30_000) =>
    (await fetch(url + p, { method, signal: AbortSignal.timeout(timeoutMs) })).json();
  return { mode, child, url, ...ready, call, stats: (gc = false) => call(`/bench/stats${gc ? '?gc=1' : ''}`) };
}

/** Polls `check` every `ms` until it answers true, at most `timeoutMs`; resolves with whether it did. */
async function until(check, { ms = 20, timeoutMs = 30_000 } = {}) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, ms));
  }
  return false;
}

const sum = (answers, key) => answers.reduce((a, m) => a + (m[key] ?? 0), 0);

/** Connects the fleet at CONNECT_RATE; on the app, also waits until the database shows every device online. */
async function connect(side, fleet) {
  await side.call('/bench/loop?reset');
  const s0 = await side.stats();
  const overflows0 = listenOverflows();
  const cpu0 = cpuTimeMs(side.child.pid);
  const port = Number(new URL(side.mqttUrl).port);
  let acceptQueue = 0;
  const sampler = setInterval(() => (acceptQueue = Math.max(acceptQueue, acceptQueueLength(port))), 50);
  if (CPU_PROF) await side.call('/bench/profile?start', 'POST');
  const t0 = performance.now();
  const answers = await fleet.step({
    cmd: 'connect',
    url: side.mqttUrl,
    rate: CONNECT_RATE / THREADS,
    perThread: (t) => ({ names: fleet.slices[t], repliers: Math.ceil(REPLIERS / THREADS) }),
  });
  const r = { ok: sum(answers, 'ok'), failed: sum(answers, 'failed'), ms: performance.now() - t0 };
  r.error = answers.find((a) => a.error)?.error;
  // Devices/s over the ramp: up to the last CONNACK, not the wait for the ones that failed.
  r.rate = r.ok / (Math.max(...answers.map((a) => a.okMs ?? 0)) / 1000 || Infinity);
  clearInterval(sampler);
  const s1 = await side.stats();
  r.flushes = s1.flushes - s0.flushes;
  r.directoryLoads = s1.directoryLoads - s0.directoryLoads;
  if (CPU_PROF)
    await side.call(`/bench/profile?stop=${path.join(PROFILES, `mqtt-${side.mode}-connect.cpuprofile`)}`, 'POST');
  r.overflows = listenOverflows() - overflows0;
  r.acceptQueue = acceptQueue;
  r.serverCores = (cpuTimeMs(side.child.pid) - cpu0) / r.ms;
  r.loop = await side.call('/bench/loop');
  if (side.mode === 'app') {
    // Without ingest only the devices answering commands (subscribed to them) are online.
    const want = COMMANDS_ONLY ? Math.min(r.ok, REPLIERS) : r.ok;
    await until(async () => (r.online = (await side.call('/bench/verify')).online) >= want, { ms: 200 });
    r.onlineMs = performance.now() - t0;
  }
  console.log(
    `  ${side.mode}: ${r.ok} connected (${fmt(r.rate, '/s', 0)}), ${r.failed} failed${r.error ? ` (${r.error})` : ''} in ${fmt(r.ms / 1000, 's')}` +
      (side.mode === 'app' ? `; ${r.online} online in the database after ${fmt(r.onlineMs / 1000, 's')}` : '') +
      `; broker CPU ${fmt(r.serverCores, 'cores', 2)}, event-loop delay max ${fmt(r.loop.delayMax, 'ms', 0)}, ` +
      `accept queue ≤ ${r.acceptQueue}, listen queue overflows ${r.overflows}` +
      (side.mode === 'app' ? `; ${r.directoryLoads} device look-ups, ${r.flushes} presence flushes` : ''),
  );
  return r;
}

/**
 * Flat-out QoS 1 state reports for DURATION s. The window ends when the broker side has taken every
 * acknowledged message and (app) the telemetry batcher has written it: messages/s is what reached
 * the subscriber (Aedes) or the database (app), over that whole window.
 */
async function ingest(side, fleet) {
  const s0 = await side.stats();
  const cpu0 = { server: cpuTimeMs(side.child.pid), gen: cpuTimeMs(process.pid) };
  const elu0 = fleet.elu();
  if (CPU_PROF) await side.call('/bench/profile?start', 'POST');
  await side.call('/bench/loop?reset');
  const timeline = [];
  let last = s0;
  const sampler = setInterval(async () => {
    const s = await side.stats().catch(() => last);
    timeline.push((s.merged ?? s.received) - (last.merged ?? last.received));
    last = s;
  }, 1000);
  const t0 = performance.now();
  const answers = await fleet.step({ cmd: 'publish', seconds: DURATION, window: WINDOW });
  const tPublished = performance.now();
  const acked = sum(answers, 'acked');
  const caughtUp = await until(async () => (await side.stats()).received - s0.received >= acked);
  // Bounded: a database that cannot keep up is reported as such, not waited for.
  const flushed = await side.call('/bench/flush', 'POST', FLUSH_WAIT_MS).then(
    () => true,
    () => false,
  );
  const tDb = performance.now();
  clearInterval(sampler);
  if (CPU_PROF)
    await side.call(`/bench/profile?stop=${path.join(PROFILES, `mqtt-${side.mode}-ingest.cpuprofile`)}`, 'POST');
  const s1 = await side.stats();
  const loop = await side.call('/bench/loop');
  const wall = tDb - t0;
  const elu = fleet.elu(elu0).map((e) => e.utilization);
  const r = {
    sent: sum(answers, 'sent'),
    acked,
    errors: sum(answers, 'errors') + sum(answers, 'unacked'),
    lost: sum(answers, 'lost'),
    caughtUp,
    flushedAll: flushed,
    received: s1.received - s0.received,
    merged: s1.merged - s0.merged,
    flushed: s1.flushed - s0.flushed,
    flushes: s1.flushes - s0.flushes,
    dropped: s1.dropped - s0.dropped,
    wall,
    drainMs: tDb - tPublished,
    serverCores: (cpuTimeMs(side.child.pid) - cpu0.server) / wall,
    genCores: (cpuTimeMs(process.pid) - cpu0.gen) / wall,
    maxElu: Math.max(...elu),
    loop,
    timeline,
  };
  // Without a finished flush only the rows written so far reached the database.
  r.rate = (side.mode === 'app' ? (flushed ? r.merged : r.flushed) : r.received) / (wall / 1000);
  if (!flushed)
    console.log(`  ${side.mode}: the database had not caught up ${FLUSH_WAIT_MS / 1000} s after the last ack`);
  console.log(
    `  ${side.mode}: ${r.acked} acked of ${r.sent} sent (${r.errors} errors/unacked, ${r.lost} connections lost), ` +
      `${r.received} received, in ${fmt(wall / 1000, 's', 2)} (drain ${fmt(r.drainMs, 'ms', 0)}): ${fmt(r.rate, 'msg/s', 0)}; ` +
      `CPU server ${fmt(r.serverCores, 'cores', 2)}, generator ${fmt(r.genCores, 'cores', 2)}, busiest thread ELU ${fmt(r.maxElu * 100, '%', 0)}`,
  );
  console.log(`  ${side.mode}: per second: ${timeline.join(' ')}`);
  return r;
}

/** Memory of the side's process after a full GC. */
const memory = async (side) => (await side.stats(true)).memory;

/**
 * One broker from start to stop: memory idle, connect, memory connected, ingest, memory after;
 * (app) history rows written, then commands unless its history is off.
 */
async function run(mode, { metrics = false, history = true } = {}) {
  const what = mode === 'app' ? 'server (embedded Aedes, ' + (PG ? 'PostgreSQL' : 'PGlite') + ')' : 'bare Aedes';
  console.log(
    `${what}${metrics ? `, metrics on, /metrics scraped every ${SCRAPE_EVERY_MS} ms` : ''}${history ? '' : ', telemetry history off'}:`,
  );
  const side = await startSide(mode, { metrics, history });
  const scraper = metrics ? startScraper(side.url, SCRAPE_EVERY_MS) : null;
  const r = { fillMs: side.fillMs, mem: { idle: await memory(side) } };
  const fleet = new Fleet(N, THREADS);
  r.connect = await connect(side, fleet);
  r.mem.connected = await memory(side);
  if (!COMMANDS_ONLY) r.ingest = await ingest(side, fleet);
  if (mode === 'app' && !COMMANDS_ONLY) {
    const s = await side.stats();
    const fin = await fleet.step({ cmd: 'final', window: WINDOW });
    const finalAcked = sum(fin, 'acked');
    await until(async () => (await side.stats()).merged - s.merged >= finalAcked);
    await side.call('/bench/flush', 'POST', FLUSH_WAIT_MS).catch(() => {});
    r.verify = await side.call('/bench/verify');
    r.points = (await side.call('/bench/points')).points;
    console.log(
      `  app: last reports in the database: ${r.verify.last} of ${N} (${finalAcked} acked); ${r.points} history rows`,
    );
  }
  r.mem.after = await memory(side);
  if (mode === 'app' && history && !INGEST_ONLY) r.commands = await commands(side, fleet);
  if (scraper) {
    r.scraped = await scraper.stop();
    r.finalStats = await side.stats();
  }
  await fleet.step({ cmd: 'close' }, 30_000);
  await fleet.terminate();
  await stop(side.child);
  return r;
}

/**
 * An open-loop run against the server, with the server's CPU per request and its event-loop
 * stalls (and GC pauses) over the measured part.
 */
async function measureHttp(side, headers, label, request, rate = COMMAND_RATE) {
  let cpu0;
  let gen0;
  let t0;
  const r = await openLoop(side.url, headers, {
    rate,
    seconds: COMMAND_SECONDS,
    warmup: WARMUP,
    request,
    onMeasure: () => {
      cpu0 = cpuTimeMs(side.child.pid);
      gen0 = cpuTimeMs(process.pid);
      t0 = performance.now();
      void side.call('/bench/loop?reset');
    },
  });
  const cpuMs = cpuTimeMs(side.child.pid) - cpu0;
  r.cpuMsPerReq = cpuMs / r.latencies.length;
  r.serverCores = cpuMs / (performance.now() - t0);
  r.genCores = (cpuTimeMs(process.pid) - gen0) / (performance.now() - t0);
  r.loop = await side.call('/bench/loop');
  console.log(
    `  ${label}: ${r.latencies.length} answers ${JSON.stringify(r.statuses)}, p50 ${fmt(percentile(r.latencies, 50), 'ms', 2)}, ` +
      `p99 ${fmt(percentile(r.latencies, 99), 'ms', 2)}, max ${fmt(Math.max(...r.latencies), 'ms', 0)}; ` +
      `server ${fmt(r.cpuMsPerReq, 'ms', 2)} CPU/request (${fmt(r.serverCores, 'cores', 2)}; generator ` +
      `${fmt(r.genCores, 'cores', 2)}), event-loop delay p99 ${fmt(r.loop.delayP99, 'ms')} ` +
      `max ${fmt(r.loop.delayMax, 'ms')}, GC ${fmt(r.loop.gcMs, 'ms', 0)} (longest ${fmt(r.loop.gcMax, 'ms')}); ` +
      `schedule lag ≤ ${fmt(r.maxLagMs, 'ms')}`,
  );
  return r;
}

/** Open-loop command round trips, after the same rate of GET /device (the baseline). */
async function commands(side, fleet) {
  const { access_token } = await login(side.url, { name: 'bench_admin', password: 'bench-password-1' });
  const headers = { authorization: `Bearer ${access_token}` };
  // The first devices of each thread's slice are the ones that answer commands.
  const targets = fleet.slices.flatMap((names) => names.slice(0, Math.ceil(REPLIERS / THREADS)));
  const target = (i) => targets[i % targets.length];
  const get = await measureHttp(side, headers, 'GET device', (i) => ({
    method: 'GET',
    path: `/api/v1/tenant/bench/device/${target(i)}`,
  }));
  if (CPU_PROF) await side.call('/bench/profile?start', 'POST');
  if (CPU_PROF) await side.call('/bench/trace?start');
  const send = (i) => ({
    method: 'POST',
    path: `/api/v1/tenant/bench/mqtt/general/${target(i)}`,
    body: { payload: { type: 'vibrate', song: 'V10' } },
  });
  // Before the full rate, whose backlog would otherwise be measured too.
  const quiet =
    COMMANDS_ONLY && QUIET_RATE > 0
      ? await measureHttp(side, headers, `command ${QUIET_RATE}/s`, send, QUIET_RATE)
      : undefined;
  const cmd = await measureHttp(side, headers, 'command   ', send);
  if (CPU_PROF) {
    await side.call(
      `/bench/profile?stop=${path.join(PROFILES, `mqtt-app-commands-${new URL(side.url).port}.cpuprofile`)}`,
      'POST',
    );
    const statements = await side.call('/bench/trace?stop');
    console.log(`  statements sent during the command window (warm-up included), by shape:`);
    for (const { count, statement } of statements.slice(0, 15))
      console.log(`    ${String(count).padStart(6)}  ${statement}`);
  }
  return { get, cmd, quiet };
}

await main(async () => {
  const started = performance.now();
  if (PG && !process.env.DATABASE_URL) throw new Error('--pg needs DATABASE_URL (scripts/ci/with-services.sh)');
  const fds = checkFdLimit(N);
  if (CPU_PROF) fs.mkdirSync(PROFILES, { recursive: true });
  console.log(
    `${N} devices on ${THREADS} threads, connecting at ${CONNECT_RATE}/s; ${DURATION} s flat out, ` +
      `window ${WINDOW}/thread; ulimit -n ${fds}; load average ${loadavg()}`,
  );
  if (COMMANDS_ONLY) {
    const runs = [];
    for (let i = 0; i < ROUNDS; i++)
      for (const metrics of [false, true]) runs.push({ metrics, ...(await run('app', { metrics })) });
    printCommandsReport(runs, {
      COMMAND_RATE,
      QUIET_RATE,
      COMMAND_SECONDS,
      REPLIERS,
      N,
      db: PG ? 'PostgreSQL' : 'PGlite',
    });
    console.log(`\nload average at the end: ${loadavg()}; took ${fmt((performance.now() - started) / 1000, 's', 0)}`);
    return;
  }
  const base = await run('aedes');
  const app = await run('app');
  printReport(app, base, {
    N,
    THREADS,
    WINDOW,
    DURATION,
    CONNECT_RATE,
    COMMAND_RATE,
    COMMAND_SECONDS,
    REPLIERS,
    WARMUP,
    db: PG ? 'PostgreSQL' : 'PGlite',
  });
  if (METRICS)
    printMetricsReport(app, await run('app', { metrics: true }), { COMMAND_RATE, WARMUP, everyMs: SCRAPE_EVERY_MS });
  if (HISTORY) printHistoryReport(app, await run('app', { history: false }), { N, DURATION, PG });
  console.log(
    `\nload average at the end: ${loadavg()} (${os.cpus().length} cores; figures are only as good as the box is quiet); ` +
      `took ${fmt((performance.now() - started) / 1000, 's', 0)}`,
  );
  if (CPU_PROF) console.log('CPU profiles of the ingest and command windows written to bench/profiles/');
});
