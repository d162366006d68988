// Login latency: POST /api/v1/login p50/p99, sequentially and at concurrency 4, against the built
// server. Baseline: in-process argon2id verify (@node-rs/argon2) with the server's parameters, at
// the same concurrency, measured in the same run while the server is stopped (no CPU contention).
// Usage: node bench/login.mjs [--n=200] [--rebuild]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import {
  ADMIN,
  ensureServerBuilt,
  fmt,
  login,
  main,
  percentile,
  printTable,
  ratio,
  root,
  startDistServer,
  stop,
} from './lib.mjs';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 200);
const MAX_MS = 10_000; // every measurement stops at N operations or 10 s, whichever comes first

/** The server's ARGON2_PARAMS, read from its source so the baseline cannot drift from it. */
function serverArgon2Params() {
  const src = fs.readFileSync(path.join(root, 'apps/server/src/lib/password.ts'), 'utf8');
  const block = /ARGON2_PARAMS\s*=\s*\{([^}]*)\}/.exec(src)?.[1];
  if (!block) throw new Error('ARGON2_PARAMS not found in apps/server/src/lib/password.ts');
  const num = (key) => Number(new RegExp(`${key}:\\s*([\\d_]+)`).exec(block)?.[1].replaceAll('_', ''));
  return {
    algorithm: num('algorithm'),
    memoryCost: num('memoryCost'),
    timeCost: num('timeCost'),
    parallelism: num('parallelism'),
  };
}

/**
 * Runs `op` up to N times with `concurrency` workers, stopping at MAX_MS; resolves with each
 * operation's latency (ms) and the wall time.
 */
async function measure(op, concurrency) {
  const latencies = [];
  let started = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (started < N && performance.now() - t0 < MAX_MS) {
      started++;
      const s = performance.now();
      await op();
      latencies.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { latencies, wallMs: performance.now() - t0 };
}

await main(async () => {
  await ensureServerBuilt({ rebuild: process.argv.includes('--rebuild') });
  const params = serverArgon2Params();

  // --- the server: a fresh DATA_DIR, then logins over one keep-alive pool (fetch) ---
  // Sign-ins from one address at full speed: the per-address limit would measure itself.
  const server = await startDistServer({ env: { RATE_LIMIT_ENABLED: 'false' } });
  for (let i = 0; i < 5; i++) await login(server.url); // warm-up: JIT, PGlite caches, argon2 threads
  const seq = await measure(() => login(server.url), 1);
  const conc = await measure(() => login(server.url), 4);
  await stop(server.child);

  // --- the baseline: the same verify in this process, server stopped ---
  const stored = await hash(ADMIN.password, params);
  for (let i = 0; i < 5; i++) await verify(stored, ADMIN.password);
  const check = async () => {
    if (!(await verify(stored, ADMIN.password))) throw new Error('verify answered false');
  };
  const bSeq = await measure(check, 1);
  const bConc = await measure(check, 4);

  console.log(`argon2id params (apps/server/src/lib/password.ts): ${JSON.stringify(params)}`);
  console.log(`stored hash prefix: ${stored.split('$').slice(0, 4).join('$')}$…`);
  console.log(
    `machine: ${os.cpus().length} cores, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}; node ${process.version}`,
  );
  const row = (figure, m, b, p) => {
    const v = percentile(m.latencies, p);
    const bv = percentile(b.latencies, p);
    return { figure, value: fmt(v, 'ms'), baseline: fmt(bv, 'ms'), ratio: ratio(v, bv) };
  };
  const rate = (m) => (m.latencies.length / m.wallMs) * 1000;
  printTable(`login latency (value: POST /api/v1/login; baseline: in-process argon2id verify)`, [
    row(`p50, sequential (n=${seq.latencies.length}/${bSeq.latencies.length})`, seq, bSeq, 50),
    row('p99, sequential', seq, bSeq, 99),
    row(`p50, concurrency 4 (n=${conc.latencies.length}/${bConc.latencies.length})`, conc, bConc, 50),
    row('p99, concurrency 4', conc, bConc, 99),
    {
      figure: 'logins/s, sequential',
      value: fmt(rate(seq), '/s'),
      baseline: fmt(rate(bSeq), '/s'),
      ratio: ratio(rate(seq), rate(bSeq)),
    },
    {
      figure: 'logins/s, concurrency 4',
      value: fmt(rate(conc), '/s'),
      baseline: fmt(rate(bConc), '/s'),
      ratio: ratio(rate(conc), rate(bConc)),
    },
  ]);
  console.log('\nno latency goal is set for login (goal column —); ratio = server cost over the bare hash check.');
});
