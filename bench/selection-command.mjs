// A command to every device a filter matches (issue 27): N simulated devices online on the embedded
// server (bench/mqtt-server.ts, MODE=app), all answering at once. Times "select all N matching"
// (`seen=online`) then Refresh to the selection, until every device has answered, beside the same
// devices sent the entity-wide Refresh (one message on the entity's topic) in the same run, the
// baseline. The two alternate, --runs times each. PGlite unless --pg (DATABASE_URL, under
// scripts/ci/with-services.sh).
// Usage: node bench/selection-command.mjs [--devices=10000] [--runs=3] [--pg]
import path from 'node:path';
import {
  HOST,
  arg,
  fmt,
  freePort,
  login,
  main,
  median,
  printTable,
  ratio,
  readyLine,
  root,
  spawnNode,
  tmpDir,
} from './lib.mjs';
import { Fleet } from './mqtt-load.mjs';

const N = arg('devices', 10_000);
const RUNS = arg('runs', 3);
const THREADS = 2;
const PG = process.argv.includes('--pg');
const TIMEOUT_MS = 300_000;

async function startServer() {
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', path.join(root, 'bench/mqtt-server.ts')], {
    env: {
      MODE: 'app',
      PORT: String(port),
      DATA_DIR: tmpDir('fleet-bench-selection-'),
      DEVICES: String(N),
      DATABASE_URL: PG ? process.env.DATABASE_URL : '',
    },
  });
  const ready = await readyLine(child, 'selection bench server', 600_000);
  return { url: `http://${HOST}:${port}`, mqttUrl: ready.mqttUrl };
}

/** Calls `check` every 50 ms until it answers a truthy value (resolved with it), at most TIMEOUT_MS. */
async function until(what, check) {
  const deadline = performance.now() + TIMEOUT_MS;
  while (performance.now() < deadline) {
    const answer = await check();
    if (answer) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not done in ${TIMEOUT_MS / 1000} s`);
}

await main(async () => {
  if (PG && !process.env.DATABASE_URL) throw new Error('--pg needs DATABASE_URL (scripts/ci/with-services.sh)');
  const server = await startServer();
  const fleet = new Fleet(N, THREADS);
  const answers = await fleet.step(
    {
      cmd: 'connect',
      url: server.mqttUrl,
      rate: 1000 / THREADS,
      entityTopic: true,
      perThread: (t) => ({ names: fleet.slices[t], repliers: fleet.slices[t].length }),
    },
    TIMEOUT_MS,
  );
  const connected = answers.reduce((n, a) => n + a.ok, 0);
  if (connected !== N)
    throw new Error(`${connected} of ${N} devices connected: ${answers.find((a) => a.error)?.error}`);
  const { access_token } = await login(server.url, { name: 'bench_admin', password: 'bench-password-1' });
  const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
  const call = async (method, p, body) => {
    const res = await fetch(`${server.url}/api/v1/tenant/bench/${p}`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  await until('devices online', async () => (await call('GET', 'device?limit=1&seen=online')).total === N);
  const refresh = { payload: { type: 'refresh' } };

  const entityWide = async () => {
    const t0 = performance.now();
    const { data } = await call('POST', 'mqtt/general/entity?wait=false', refresh);
    await until('entity-wide Refresh', async () => {
      const { data: p } = await call('GET', `mqtt/general/entity/${data.id}`);
      return p.counts.succeeded + p.counts.failed + p.counts.timed_out + p.counts.expired >= p.total;
    });
    return performance.now() - t0;
  };
  const matching = async () => {
    const t0 = performance.now();
    const { data: selection } = await call('POST', 'device-selection', { query: 'seen=online' });
    const counted = performance.now() - t0;
    if (selection.total !== N) throw new Error(`the selection counted ${selection.total} of ${N}`);
    await call('POST', `device-selection/${selection.id}/command`, refresh);
    await until('Refresh to all matching', async () => {
      const { data: s } = await call('GET', `device-selection/${selection.id}`);
      const c = s.counts ?? {};
      return (c.succeeded ?? 0) + (c.failed ?? 0) + (c.timed_out ?? 0) + (c.expired ?? 0) >= s.total;
    });
    return { ms: performance.now() - t0, counted };
  };

  const base = [];
  const sel = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternating which goes first, so neither always meets a warmer server.
    if (run % 2) sel.push(await matching());
    base.push(await entityWide());
    if (!(run % 2)) sel.push(await matching());
    console.error(
      `[selection-command] run ${run + 1}: entity-wide ${fmt(base.at(-1) / 1000, 's', 2)}, all matching ${fmt(sel.at(-1).ms / 1000, 's', 2)}`,
    );
  }
  await fleet.step({ cmd: 'close' }, 30_000);
  const b = median(base);
  printTable(
    `Refresh to ${N.toLocaleString('en-US')} online simulated devices (${PG ? 'PostgreSQL' : 'PGlite'}), median of ${RUNS}`,
    [
      {
        figure: 'select all matching (seen=online) + Refresh, until every device answered',
        value: fmt(median(sel.map((s) => s.ms)) / 1000, 's', 2),
        baseline: `${fmt(b / 1000, 's', 2)} entity-wide`,
        ratio: ratio(median(sel.map((s) => s.ms)), b),
        goal: '—',
      },
      {
        figure: 'of which the dry run (counting the filter)',
        value: fmt(median(sel.map((s) => s.counted)), 'ms', 0),
        baseline: '—',
        ratio: '—',
        goal: '—',
      },
    ],
  );
});
