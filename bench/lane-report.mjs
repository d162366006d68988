#!/usr/bin/env node
// Reads what bench/lane-probe.mjs wrote during `node bench/rollout.mjs` and splits each
// `GET …/device/<name>` by phase (idle, bulk DFU, rollout) into: waiting in the priority lane (and
// behind which statement: the one running when the GET asked), its own statements, and the rest
// (auth, serialisation, the main thread's event loop); beside it the server's event-loop delay,
// main-thread CPU, the PGlite thread's utilisation and the background statements, most time first.
//   node bench/lane-report.mjs /tmp/lane.jsonl
import fs from 'node:fs';

const file = process.argv[2];
if (!file) throw new Error('usage: node bench/lane-report.mjs <LANE_PROBE file>');
const read = (f) =>
  fs.existsSync(f)
    ? fs
        .readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
const Q = new Map();
const T = new Map();
const R = [];
const S = [];
for (const o of read(file)) {
  if (o.k === 'q') Q.set(o.id, o);
  else if (o.k === 't') T.set(o.id, o.text);
  else if (o.k === 'r') R.push(o);
  else if (o.k === 's') S.push(o);
}
const B = read(`${file}.bench`);
const C = B.filter((o) => o.k === 'c');
const BS = B.filter((o) => o.k === 's');

const posts = R.filter((r) => r.m === 'POST');
const first = (pred) => Math.min(...posts.filter(pred).map((r) => r.t0));
const bulk0 = first((r) => r.u.includes('/mqtt/dfu/devices'));
const ro0 = first((r) => r.u.includes('/rollouts/') && r.u.endsWith('/start'));
const bulk1 = Math.min(
  ro0,
  first((r) => r.u.endsWith('/firmware') && r.t0 > bulk0),
);
const regs = posts.filter((r) => r.t0 < bulk0 && /\/device$/.test(r.u)).map((r) => r.t1);
const phases = {
  idle: [regs.length ? Math.max(...regs) : 0, bulk0],
  bulk: [bulk0, bulk1],
  rollout: [ro0, Math.max(...R.map((r) => r.t1 ?? 0))],
};

const pct = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN;
};
const mean = (a) => a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : '—').padStart(8);
const line = (name, a) =>
  console.log(
    `  ${name.padEnd(44)} p50 ${f1(pct(a, 0.5))}  p90 ${f1(pct(a, 0.9))}  p99 ${f1(pct(a, 0.99))}  mean ${f1(mean(a))}`,
  );
const text = (id, n) => (T.get(id) ?? '?').trim().slice(0, n);
const avg = (k, L) => mean(L.map((s) => s[k] ?? 0));

for (const [name, [a, b]] of Object.entries(phases)) {
  const g = R.filter((r) => r.m === 'GET' && /\/device\/[^/?]+$/.test(r.u) && r.t0 >= a && r.t0 < b);
  console.log(`== ${name}: ${g.length} GET device, ${((b - a) / 1000).toFixed(1)} s`);
  if (g.length === 0) continue;
  line(
    'as the bench saw it',
    C.filter((c) => c.t0 >= a && c.t0 < b).map((c) => c.t1 - c.t0),
  );
  line(
    'in the server',
    g.map((r) => r.t1 - r.t0),
  );
  line(
    'waiting in the lane',
    g.map((r) => r.wait),
  );
  line(
    'its own statements (sent -> answered)',
    g.map((r) => r.sql),
  );
  line(
    'the rest (auth, serialise, event loop)',
    g.map((r) => r.t1 - r.t0 - r.wait - r.sql),
  );
  line(
    'checkouts a GET',
    g.map((r) => r.waits.length),
  );
  const behind = new Map();
  let waits = 0;
  let onRunning = 0;
  for (const r of g)
    for (const [w, id] of r.waits) {
      waits++;
      const q = Q.get(id);
      if (!q) continue;
      onRunning++;
      const e = behind.get(q.x) ?? { n: 0, wait: 0, held: 0, max: 0 };
      e.n++;
      e.wait += w;
      e.held += q.t1 - q.t0;
      e.max = Math.max(e.max, w);
      behind.set(q.x, e);
    }
  console.log(
    `  checkouts ${waits}, ${onRunning} of them found a statement running; behind it (count, wait ms, its mean ms, longest wait):`,
  );
  for (const [x, e] of [...behind].sort((p, q) => q[1].wait - p[1].wait).slice(0, 8))
    console.log(
      `   ${String(e.n).padStart(5)} ${e.wait.toFixed(0).padStart(8)} ${f1(e.held / e.n)} ${f1(e.max)}  ${text(x, 110)}`,
    );
  const ss = S.filter((s) => s.t >= a && s.t < b + 1000);
  const bs = BS.filter((s) => s.t >= a && s.t < b + 1000);
  console.log(
    `  server, a second: event-loop delay mean ${avg('eldMean', ss).toFixed(1)} ms (p99 ${avg('eldP99', ss).toFixed(1)}), ` +
      `main thread busy ${(avg('elu', ss) * 100).toFixed(0)} %, its CPU ${(avg('mainCpuMs', ss) / 10).toFixed(0)} %, ` +
      `process CPU ${(avg('procCpuMs', ss) / 10).toFixed(0)} %, PGlite thread busy ${(avg('dbElu', ss) * 100).toFixed(0)} %, ` +
      `connection held ${(avg('connBusyMs', ss) / 10).toFixed(0)} %`,
  );
  console.log(
    `  bench, a second: event-loop delay mean ${avg('eldMean', bs).toFixed(1)} ms, CPU ${(avg('mainCpuMs', bs) / 10).toFixed(0)} %`,
  );
  const bg = new Map();
  for (const q of Q.values()) {
    if (q.i || q.t0 < a || q.t0 >= b) continue;
    const e = bg.get(q.x) ?? { n: 0, ms: 0, max: 0 };
    e.n++;
    e.ms += q.t1 - q.t0;
    e.max = Math.max(e.max, q.t1 - q.t0);
    bg.set(q.x, e);
  }
  console.log('  background statements (count, total ms, longest ms):');
  for (const [x, e] of [...bg].sort((p, q) => q[1].ms - p[1].ms).slice(0, 8))
    console.log(`   ${String(e.n).padStart(6)} ${e.ms.toFixed(0).padStart(8)} ${f1(e.max)}  ${text(x, 110)}`);
}
