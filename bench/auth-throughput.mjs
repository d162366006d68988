// Throughput of (a) an authenticated trivial route, (b) the same route unauthenticated, both in the
// real app, (c) a bare node:http server answering the same JSON, and (d) the same bare server also
// sending the app's (security) headers, to split their cost off. Server and load generator
// (autocannon CLI) each run in their own child process; everything binds 127.0.0.1.
// Usage: node bench/auth-throughput.mjs [--rounds=3] [--duration=8] [--connections=10] [--cpu-prof]
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN,
  HOST,
  cpuTimeMs,
  fmt,
  freePort,
  login,
  main,
  printTable,
  ratio,
  root,
  spawnNode,
  stop,
  tmpDir,
  waitFor200,
} from './lib.mjs';

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const ROUNDS = Number(arg('rounds', 3));
const DURATION = Math.min(10, Number(arg('duration', 8))); // house rule: ≤ 10 s per measurement
const CONNECTIONS = Number(arg('connections', 10));
const WARMUP = 2;
const CPU_PROF = process.argv.includes('--cpu-prof'); // profile the app server, written to bench/profiles/
const AUTOCANNON = path.join(root, 'node_modules/autocannon/autocannon.js');

/** Starts bench/auth-server.ts in `mode` on a free port; resolves when it answers. */
async function startServer(mode, headers = {}) {
  const port = await freePort();
  const prof =
    CPU_PROF && mode === 'fastify' ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/profiles')}`] : [];
  const child = spawnNode([...prof, '--import', 'tsx', path.join(root, 'bench/auth-server.ts')], {
    env: {
      MODE: mode,
      HEADERS: JSON.stringify(headers),
      PORT: String(port),
      DATA_DIR: path.join(tmpDir('fleet-bench-auth-'), 'data'),
      ADMIN_USERNAME: ADMIN.name,
      ADMIN_PASSWORD: ADMIN.password,
    },
  });
  const url = `http://${HOST}:${port}`;
  await waitFor200(`${url}/bench/open`, { child, timeoutMs: 60_000, intervalMs: 50 });
  return { child, url };
}

/** One autocannon run in a child process; resolves with its JSON result. Bounded by duration + 15 s. */
async function autocannon(url, seconds, headers = {}) {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const child = spawnNode([AUTOCANNON, '-j', '-c', String(CONNECTIONS), '-d', String(seconds), ...h, url]);
  const guard = setTimeout(() => void stop(child), (seconds + 15) * 1000);
  const { code } = await child.exited;
  clearTimeout(guard);
  if (code !== 0) throw new Error(`autocannon failed (${code}):\n${child.output}`);
  return JSON.parse(child.stdoutText);
}

/**
 * Warm-up run (discarded), then the measured run; warns when any answer was not 2xx. Also records
 * the server's CPU µs per request, which other load on the box barely moves (req/s it does).
 */
async function measure(label, server, path, headers) {
  const url = server.url + path;
  await autocannon(url, WARMUP, headers);
  const cpu0 = cpuTimeMs(server.child.pid);
  const r = await autocannon(url, DURATION, headers);
  r.cpuUsPerReq = ((cpuTimeMs(server.child.pid) - cpu0) * 1000) / r.requests.total;
  const bad = r.non2xx + r.errors + r.timeouts;
  r.invalid = bad > 0;
  if (bad > 0)
    console.log(`warning: ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts — figure invalid`);
  console.log(
    `  ${label}: ${r.requests.average.toFixed(0)} req/s, ${r.cpuUsPerReq.toFixed(0)} µs CPU/req, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`,
  );
  return r;
}

await main(async () => {
  const runs = { authed: [], open: [], bare: [], bareHeaders: [] };
  // Rounds alternate the servers so that interference from other work on the box hits each alike.
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}/${ROUNDS} (${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s)`);
    const app = await startServer('fastify');
    const { access_token } = await login(app.url);
    // The app's own answer headers minus the ones the bare server sets itself, for baseline (d).
    const appHeaders = Object.fromEntries(
      [...(await fetch(`${app.url}/bench/open`)).headers].filter(
        ([k]) => !['date', 'connection', 'keep-alive', 'content-length', 'content-type'].includes(k),
      ),
    );
    const authed = async () =>
      runs.authed.push(await measure('(a) authed', app, '/bench/authed', { authorization: `Bearer ${access_token}` }));
    const open = async () => runs.open.push(await measure('(b) open  ', app, '/bench/open', {}));
    // Swap the order every round: the second route runs on a longer-lived, more JIT-warm process.
    if (round % 2) await authed().then(open);
    else await open().then(authed);
    await stop(app.child);
    const bare = await startServer('bare');
    runs.bare.push(await measure('(c) bare  ', bare, '/bench/open', {}));
    await stop(bare.child);
    const bareH = await startServer('bare', appHeaders);
    runs.bareHeaders.push(
      await measure(`(d) bare + ${Object.keys(appHeaders).length} headers`, bareH, '/bench/open', {}),
    );
    await stop(bareH.child);
  }

  // Best round per target: interference only ever lowers a figure.
  // Runs with any non-2xx answer measured something else (e.g. 401s): they are left out.
  const ok = (k) => runs[k].filter((r) => !r.invalid);
  const rps = (k) => Math.max(...ok(k).map((r) => r.requests.average));
  const lat = (k, p) => Math.min(...ok(k).map((r) => r.latency[p]));
  const cpu = (k) => Math.min(...ok(k).map((r) => r.cpuUsPerReq));
  const [a, b, c, d] = [rps('authed'), rps('open'), rps('bare'), rps('bareHeaders')];
  const [ca, cb, cc, cd] = [cpu('authed'), cpu('open'), cpu('bare'), cpu('bareHeaders')];
  const rq = (v) => fmt(v, 'req/s', 0);
  const us = (v) => fmt(v, 'µs/req', 0);
  // Two readings of each goal: req/s (what the goal says, but moved by any other load on the box)
  // and CPU efficiency = baseline CPU per request / value CPU per request (the steadier of the two).
  printTable(`auth throughput (best of ${ROUNDS} rounds, ${CONNECTIONS} connections; node ${process.version})`, [
    {
      figure: '(a) authed vs (b) open, req/s',
      value: rq(a),
      baseline: rq(b),
      ratio: ratio(a, b, true),
      goal: '≥ 85 %',
    },
    {
      figure: '(a) authed vs (b) open, CPU efficiency',
      value: us(ca),
      baseline: us(cb),
      ratio: ratio(cb, ca, true),
      goal: '≥ 85 %',
    },
    {
      figure: '(a) authed vs (c) bare node:http, req/s',
      value: rq(a),
      baseline: rq(c),
      ratio: ratio(a, c, true),
      goal: '≥ 80 %',
    },
    {
      figure: '(a) authed vs (c) bare node:http, CPU eff.',
      value: us(ca),
      baseline: us(cc),
      ratio: ratio(cc, ca, true),
      goal: '≥ 80 %',
    },
    { figure: '(a) authed vs (d) bare + app headers, req/s', value: rq(a), baseline: rq(d), ratio: ratio(a, d, true) },
    {
      figure: '(a) authed vs (d) bare + app headers, CPU eff.',
      value: us(ca),
      baseline: us(cd),
      ratio: ratio(cd, ca, true),
    },
    { figure: '(b) open vs (c) bare node:http, CPU eff.', value: us(cb), baseline: us(cc), ratio: ratio(cc, cb, true) },
    {
      figure: 'p99 latency (a) vs (c)',
      value: fmt(lat('authed', 'p99'), 'ms', 0),
      baseline: fmt(lat('bare', 'p99'), 'ms', 0),
      ratio: ratio(lat('authed', 'p99'), lat('bare', 'p99')),
    },
  ]);
  const verdict = (r, goal) => (!Number.isFinite(r) ? 'n/a (no valid run)' : r >= goal ? 'met' : 'MISSED');
  console.log(`\ngoal a/b ≥ 85 %: ${verdict(a / b, 0.85)} by req/s, ${verdict(cb / ca, 0.85)} by CPU`);
  console.log(`goal a/c ≥ 80 %: ${verdict(a / c, 0.8)} by req/s, ${verdict(cc / ca, 0.8)} by CPU`);
  console.log(
    `load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} cores); req/s figures are only as good as the box is quiet`,
  );
  if (CPU_PROF) console.log('CPU profile of the app server written to bench/profiles/ (open in Chrome DevTools)');
});
