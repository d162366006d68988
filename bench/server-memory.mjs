// The built server's memory: a first start (empty DATA_DIR, the build's database template), then a
// sign-in and 5 lists, then quiet. Prints the peak (VmHWM, and VmRSS sampled every 20 ms from the
// spawn), the RSS right after the lists and after --idle seconds of quiet, and where the idle RSS
// lives (/proc/<pid>/smaps: V8 heap pages, larger anonymous mappings = malloc arenas and PGlite's
// WebAssembly memory, mapped files). Baseline (same run): a bare node:http server spawned with the
// same flags and environment. The server runs as `npm start` runs it (flags and environment from
// scripts/lib.mjs). RSS barely moves with other load on the box; its variation between runs does
// (which thread allocates when): take the median of --runs.
// Usage: node bench/server-memory.mjs [--runs=3] [--idle=25] [--script=<another build's main.js>]
//        [--no-process-env] [--rebuild]
import fs from 'node:fs';
import {
  ADMIN,
  HOST,
  SERVER_PROCESS_ENV,
  SERVER_NODE_FLAGS,
  arg,
  ensureServerBuilt,
  fmt,
  freePort,
  login,
  main,
  median,
  printTable,
  ratio,
  serverDist,
  spawnNode,
  stop,
  tmpDir,
  waitFor200,
} from './lib.mjs';

const RUNS = arg('runs', 3);
const IDLE_S = arg('idle', 25);
const script = process.argv.find((a) => a.startsWith('--script='))?.slice(9) ?? serverDist;
// --no-process-env: without npm start's environment (SERVER_PROCESS_ENV), to see what it changes.
const PROCESS_ENV = process.argv.includes('--no-process-env') ? {} : SERVER_PROCESS_ENV;
const LISTS = ['/api/v1/device', '/api/v1/account', '/api/v1/tenant', '/api/v1/audit', '/api/v1/alerts'];
const MB = 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** VmRSS and VmHWM of a process, in bytes. */
function rss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN) * 1000;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * Resident bytes by kind of mapping. V8 takes its heap in 256 KiB pages (one mapping each); malloc's
 * thread arenas (64 MiB reservations) and PGlite's WebAssembly memory are the large anonymous ones.
 */
function residentByKind(pid) {
  const out = {
    'V8 heap pages (anonymous < 2 MB)': 0,
    'larger anonymous (malloc, wasm memory)': 0,
    files: 0,
    other: 0,
  };
  let kind;
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) {
      const size = parseInt(m[2], 16) - parseInt(m[1], 16);
      kind = m[3].startsWith('/')
        ? 'files'
        : m[3] !== ''
          ? 'other'
          : size < 2 * 1024 * 1024
            ? 'V8 heap pages (anonymous < 2 MB)'
            : 'larger anonymous (malloc, wasm memory)';
      continue;
    }
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r) out[kind] += Number(r[1]) * 1000;
  }
  return out;
}

/** Spawns `args` like npm start does; samples VmRSS every 20 ms until `until` settles. */
async function spawnSampled(args, env) {
  const child = spawnNode([...SERVER_NODE_FLAGS, ...args], { env: { ...PROCESS_ENV, ...env } });
  let sampledPeak = 0;
  const sampler = setInterval(() => {
    try {
      sampledPeak = Math.max(sampledPeak, rss(child.pid).rss);
    } catch {
      // not started yet, or gone
    }
  }, 20);
  return { child, peak: () => sampledPeak, stopSampling: () => clearInterval(sampler) };
}

async function bare() {
  const port = await freePort();
  const code = `require('node:http').createServer((q,s)=>s.end('{"ok":true}')).listen(${port},'${HOST}')`;
  const run = await spawnSampled(['-e', code], {});
  await waitFor200(`http://${HOST}:${port}/`, { child: run.child, timeoutMs: 10_000, intervalMs: 20 });
  await sleep(1000);
  const r = rss(run.child.pid);
  run.stopSampling();
  await stop(run.child);
  return { idle: r.rss, hwm: r.hwm };
}

async function server() {
  const port = await freePort();
  const run = await spawnSampled([script], {
    PORT: String(port),
    HOST,
    DATA_DIR: tmpDir('fleet-bench-memory-'),
    ADMIN_USERNAME: ADMIN.name,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'info',
    MQTT_PORT: '0',
  });
  const url = `http://${HOST}:${port}`;
  await waitFor200(`${url}/healthz`, { child: run.child, timeoutMs: 90_000, intervalMs: 50 });
  const { access_token } = await login(url);
  for (const list of LISTS) {
    const res = await fetch(url + list, { headers: { authorization: `Bearer ${access_token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${list} answered ${res.status}`);
  }
  const afterLists = rss(run.child.pid).rss;
  await sleep(IDLE_S * 1000);
  const end = rss(run.child.pid);
  const kinds = residentByKind(run.child.pid);
  run.stopSampling();
  await stop(run.child);
  console.log(
    `  run: peak ${fmt(end.hwm / MB, 'MB', 0)} (sampled ${fmt(run.peak() / MB, 'MB', 0)}), after the lists ${fmt(afterLists / MB, 'MB', 0)}, idle ${fmt(end.rss / MB, 'MB', 0)}`,
  );
  return { hwm: end.hwm, sampledPeak: run.peak(), afterLists, idle: end.rss, kinds };
}

await main(async () => {
  if (script === serverDist) await ensureServerBuilt({ rebuild: process.argv.includes('--rebuild') });
  console.log(`server: ${script}; node flags ${SERVER_NODE_FLAGS.join(' ')}; env ${JSON.stringify(PROCESS_ENV)}`);
  const runs = [];
  const bares = [];
  for (let i = 0; i < RUNS; i++) {
    bares.push(await bare());
    runs.push(await server());
  }
  const med = (f, list = runs) => median(list.map(f));
  const mb = (v) => fmt(v / MB, 'MB', 0);
  const base = med((b) => b.idle, bares);
  const row = (figure, value, baseline, goal) => ({
    figure,
    value: mb(value),
    baseline: baseline === undefined ? undefined : mb(baseline),
    ratio: baseline === undefined ? undefined : ratio(value, baseline),
    goal,
  });
  const rows = [
    row(
      'peak RSS at first start (VmHWM)',
      med((r) => r.hwm),
      med((b) => b.hwm, bares),
      '≤ 300 MB',
    ),
    row(
      'RSS right after a sign-in and 5 lists',
      med((r) => r.afterLists),
      base,
    ),
    row(
      `idle RSS, ${IDLE_S} s after the lists`,
      med((r) => r.idle),
      base,
      '≤ 200 MB',
    ),
    ...Object.keys(runs[0].kinds).map((k) =>
      row(
        `  of which ${k}`,
        med((r) => r.kinds[k]),
      ),
    ),
  ];
  printTable(`built server memory (median of ${RUNS} runs; baseline: bare node:http with the same flags)`, rows);
  console.log(
    `runs (idle MB): ${runs.map((r) => (r.idle / MB).toFixed(0)).join(', ')}; peaks: ${runs.map((r) => (r.hwm / MB).toFixed(0)).join(', ')}`,
  );
});
