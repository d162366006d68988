// Cold start: spawn of the built server to its first 200 from /healthz, with an empty DATA_DIR
// (PGlite initdb + migrations + superadmin hash) and with an initialised one (warm data, cold
// process). Baseline: a bare node:http server's spawn-to-first-answer, measured in the same run.
// Usage: node bench/cold-start.mjs [--runs=5] [--rebuild]
import path from 'node:path';
import {
  ADMIN,
  HOST,
  ensureServerBuilt,
  fmt,
  freePort,
  main,
  median,
  min,
  printTable,
  ratio,
  serverDist,
  spawnNode,
  stop,
  tmpDir,
  waitFor200,
  SERVER_NODE_FLAGS,
} from './lib.mjs';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 5);

// The same command line as scripts/start.mjs (npm start), so the figure is what an operator sees.
const SERVER_ARGS = [...SERVER_NODE_FLAGS, serverDist];

/** Spawns the server on a free port and resolves with spawn→first-200 and the log-phase times. */
async function startServer(dataDir) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnNode(SERVER_ARGS, {
    env: {
      PORT: String(port),
      HOST,
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
    },
  });
  // Arrival times of the server's own log lines split the total into phases (db, superadmin, listen).
  const phases = {};
  let buf = '';
  child.stdout.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        let { msg } = JSON.parse(line);
        if (msg?.startsWith('Server listening')) msg = 'Server listening'; // drop the per-run port
        if (msg && !(msg in phases)) phases[msg] = performance.now() - t0;
      } catch {
        // not a pino line
      }
    }
  });
  const t1 = await waitFor200(`http://${HOST}:${port}/healthz`, { child, timeoutMs: 60_000 });
  await stop(child); // SIGTERM: the server closes PGlite cleanly, so the data dir stays usable
  return { ms: t1 - t0, phases };
}

/** The baseline: a bare http server that answers anything with 200, spawned the same way. */
async function startBare() {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnNode([
    '-e',
    `require('node:http').createServer((q,s)=>s.end('{"status":"ok"}')).listen(${port},'${HOST}')`,
  ]);
  const t1 = await waitFor200(`http://${HOST}:${port}/healthz`, { child, timeoutMs: 10_000 });
  await stop(child);
  return { ms: t1 - t0 };
}

await main(async () => {
  await ensureServerBuilt({ rebuild: process.argv.includes('--rebuild') });
  const bare = [];
  const empty = [];
  const warm = [];
  let warmDir;
  // Interleaved rounds so that drift in machine load hits all three series alike.
  for (let i = 0; i < RUNS; i++) {
    bare.push(await startBare());
    const dir = path.join(tmpDir('fleet-bench-cold-'), 'data'); // not created: truly empty
    empty.push(await startServer(dir));
    warmDir ??= dir; // the first initialised dir serves every warm run
    warm.push(await startServer(warmDir));
    process.stdout.write(
      `round ${i + 1}/${RUNS}: bare ${bare[i].ms.toFixed(0)} ms, empty ${empty[i].ms.toFixed(0)} ms, warm ${warm[i].ms.toFixed(0)} ms\n`,
    );
  }

  const ms = (runs) => runs.map((r) => r.ms);
  const phase = (runs, msg) => median(runs.map((r) => r.phases[msg]).filter((v) => v !== undefined));
  const b = { min: min(ms(bare)), med: median(ms(bare)) };
  printTable(`cold start, spawn → first 200 /healthz (${RUNS} runs each; node ${process.version})`, [
    {
      figure: 'empty DATA_DIR, min',
      value: fmt(min(ms(empty)), 'ms', 0),
      baseline: fmt(b.min, 'ms', 0),
      ratio: ratio(min(ms(empty)), b.min),
    },
    {
      figure: 'empty DATA_DIR, median',
      value: fmt(median(ms(empty)), 'ms', 0),
      baseline: fmt(b.med, 'ms', 0),
      ratio: ratio(median(ms(empty)), b.med),
    },
    {
      figure: 'initialised DATA_DIR, min',
      value: fmt(min(ms(warm)), 'ms', 0),
      baseline: fmt(b.min, 'ms', 0),
      ratio: ratio(min(ms(warm)), b.min),
    },
    {
      figure: 'initialised DATA_DIR, median',
      value: fmt(median(ms(warm)), 'ms', 0),
      baseline: fmt(b.med, 'ms', 0),
      ratio: ratio(median(ms(warm)), b.med),
    },
  ]);
  // Where the time goes, from the arrival of the server's log lines (median over runs, since spawn).
  printTable('phases (median ms since spawn, from log lines; baseline = initialised DATA_DIR)', [
    ...['database ready', 'created the superadmin', 'Server listening'].map((msg) => {
      const e = phase(empty, msg);
      const w = phase(warm, msg);
      return { figure: msg, value: fmt(e, 'ms', 0), baseline: fmt(w, 'ms', 0), ratio: ratio(e, w) };
    }),
  ]);
  console.log('\nvalue = empty DATA_DIR unless stated; no goal is set for cold start (goal column —).');
});
