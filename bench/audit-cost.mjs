// What the audit log costs a mutating route (issue 26): N sequential `POST …/device` creations,
// then N `DELETE …/device/{name}`, each with its audit entry, beside the same routes with auditing
// off. Two servers of the same kind run side by side (bench/audit-cost-server.ts, the app from
// sources, PGlite each in its own DATA_DIR, or one PostgreSQL under scripts/ci/with-services.sh):
// one as shipped, one built with BuildOptions.unaudited (the change alone, no transaction of its
// own, no entry — the route as it was before the audit log). The requests go in rounds that
// alternate which server goes first, so a busier moment of the box falls on both.
// Then checks that the audited server recorded every creation and deletion and the other none.
// Usage: node bench/audit-cost.mjs [--n=1000] [--rounds=10] [--warmup=20]
import crypto from 'node:crypto';
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
  printTable,
  ratio,
  readyLine,
  root,
  spawnNode,
  tmpDir,
} from './lib.mjs';

const N = arg('n', 1000);
const ROUNDS = Math.max(1, Math.min(N, arg('rounds', 10)));
const WARMUP = arg('warmup', 20);
const BENCH_ADMIN = { name: 'bench_admin', password: 'bench-password-1' };
// Names unique to this run (a PostgreSQL database outlives it): side letter, 5 hex of run, 6 of index.
const RUN = crypto.randomBytes(3).toString('hex').slice(0, 5);

/** Starts one server (`audit`: 'on' | 'off'), signs in as bench_admin; answers what the rounds need. */
async function startSide(audit, letter) {
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', path.join(root, 'bench/audit-cost-server.ts')], {
    env: { PORT: String(port), DATA_DIR: tmpDir(`fleet-bench-audit-${audit}-`), AUDIT: audit },
  });
  await readyLine(child, `audit ${audit} server`);
  const url = `http://${HOST}:${port}`;
  const { access_token } = await login(url, BENCH_ADMIN);
  const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
  const prefix = `${letter}${RUN}`;
  return {
    audit,
    child,
    url,
    headers,
    prefix,
    name: (i) => `${prefix}${i.toString(16).padStart(6, '0')}`,
    create: { times: [], cpuMs: 0, failed: 0 },
    remove: { times: [], cpuMs: 0, failed: 0 },
  };
}

/** One request; answers its time in ms, or throws on an answer it did not expect. */
async function timed(side, method, p, body, expect) {
  const t0 = performance.now();
  const res = await fetch(`${side.url}/api/v1/tenant/bench${p}`, {
    method,
    headers: body ? side.headers : { authorization: side.headers.authorization },
    body: body ? JSON.stringify(body) : undefined,
  });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== expect) throw new Error(`${method} ${p} (${side.audit}) answered ${res.status}`);
  return ms;
}

const createDevice = (side, i) =>
  timed(side, 'POST', '/device', { document: { name: side.name(i), description: 'audit bench' } }, 201);
const deleteDevice = (side, i) => timed(side, 'DELETE', `/device/${side.name(i)}`, undefined, 200);

/** Devices [from, to) on one side, one after the other; times and server CPU go to `into`. */
async function batch(side, into, op, from, to) {
  const cpu0 = cpuTimeMs(side.child.pid);
  for (let i = from; i < to; i++) into.times.push(await op(side, i));
  into.cpuMs += cpuTimeMs(side.child.pid) - cpu0;
}

/** N operations per side in ROUNDS rounds; odd rounds start with the other side. */
async function alternate(sides, key, op) {
  for (let r = 0; r < ROUNDS; r++) {
    const from = WARMUP + Math.floor((r * N) / ROUNDS);
    const to = WARMUP + Math.floor(((r + 1) * N) / ROUNDS);
    for (const side of r % 2 ? [...sides].reverse() : sides) await batch(side, side[key], op, from, to);
  }
}

/** How many entries of `action` name this side's devices (its run's prefix). */
async function entries(side, action) {
  // The list's total is exact only up to offset + limit + 1,000 (docs/decisions/2026-11-29-audit-total-from-the-page.md):
  // past that it is a lower bound, so the count goes on from there.
  for (let offset = 0; ;) {
    const res = await fetch(
      `${side.url}/api/v1/tenant/bench/audit?limit=1&offset=${offset}&action=${action}&search=${side.prefix}`,
      { headers: { authorization: side.headers.authorization } },
    );
    if (res.status !== 200) throw new Error(`audit list answered ${res.status}`);
    const { total, total_is_lower_bound: more } = await res.json();
    if (!more) return total;
    offset = total;
  }
}

await main(async () => {
  const started = performance.now();
  const db = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(
    `${N} creations then ${N} deletions per server in ${ROUNDS} alternating rounds (after ${WARMUP} unmeasured), ` +
      `${db}; load average ${loadavg()}`,
  );
  const on = await startSide('on', 'a');
  const off = await startSide('off', 'b');
  const sides = [on, off];
  for (const side of sides)
    for (let i = 0; i < WARMUP; i++) {
      await createDevice(side, i);
      await deleteDevice(side, i);
    }
  await alternate(sides, 'create', createDevice);
  await alternate(sides, 'remove', deleteDevice);
  const recorded = {};
  for (const side of sides)
    recorded[side.audit] = {
      create: await entries(side, 'device.create'),
      remove: await entries(side, 'device.delete'),
    };

  const ms = (v) => fmt(v, 'ms', 2);
  const rows = [];
  for (const [key, route, goal] of [
    ['create', 'POST device', '≤ 1.1×'],
    ['remove', 'DELETE device/{name}', undefined],
  ]) {
    for (const [q, label] of [
      [50, 'p50'],
      [90, 'p90'],
      [99, 'p99'],
    ])
      rows.push({
        figure: `${route} ${label}, audited vs not`,
        value: ms(percentile(on[key].times, q)),
        baseline: ms(percentile(off[key].times, q)),
        ratio: ratio(percentile(on[key].times, q), percentile(off[key].times, q)),
        goal: q === 50 ? goal : undefined,
      });
    const cpu = (s) => s[key].cpuMs / s[key].times.length;
    rows.push({
      figure: `${route}: server CPU per request`,
      value: ms(cpu(on)),
      baseline: ms(cpu(off)),
      ratio: ratio(cpu(on), cpu(off)),
    });
    rows.push({
      figure: `${route}: audit entries recorded`,
      value: `${recorded.on[key]} of ${N + WARMUP}`,
      baseline: `${recorded.off[key]}`,
      goal: `${N + WARMUP} / 0`,
    });
  }
  printTable(`a mutating route with its audit entry vs auditing off: ${N} sequential requests each, ${db}`, rows);
  const complete = recorded.on.create === N + WARMUP && recorded.on.remove === N + WARMUP;
  if (!complete || recorded.off.create + recorded.off.remove !== 0)
    throw new Error(`audit entries: ${JSON.stringify(recorded)}, expected ${N + WARMUP} each on the audited server`);
  console.log(
    `\nload average at the end: ${loadavg()} (${os.cpus().length} cores; figures are only as good as the box is quiet); ` +
      `took ${fmt((performance.now() - started) / 1000, 's', 0)}`,
  );
});
