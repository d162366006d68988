// The app's build as a test file pays it (issue 24): a fresh process imports the app from sources
// (tsx, as vitest does), then builds + listens + closes it --builds times on a copy of the PGlite
// template (the copy and open timed apart). With --base=<another tree's apps/server/src>, the runs
// alternate that tree and this one (A/B/A/B) in the same run. Baseline: a bare Fastify app with one
// route, built + listened + closed in the same processes. CPU is user + system of every thread.
// Usage: node bench/server-start.mjs [--runs=3] [--builds=3] [--base=/path/to/apps/server/src] [--src=…]
import path from 'node:path';
import { arg, fmt, loadavg, main, median, printTable, root, spawnNode } from './lib.mjs';

const RUNS = arg('runs', 3);
const BUILDS = arg('builds', 3);
const base = process.argv.find((a) => a.startsWith('--base='))?.slice(7);
// --src: another tree in place of this one (e.g. this change alone on a clean copy of the base).
const src = process.argv.find((a) => a.startsWith('--src='))?.slice(6);
const trees = [
  ...(base ? [{ name: 'base', src: path.resolve(base) }] : []),
  { name: src ? 'src' : 'this tree', src: src && path.resolve(src) },
];

/** One fresh process: its import, each build's figures and the bare app's, in CPU seconds. */
async function sample(src) {
  const args = ['--import', 'tsx', path.join(root, 'bench/server-start-child.ts'), `--builds=${BUILDS}`];
  const child = spawnNode(src ? [...args, `--src=${src}`] : args);
  const { code } = await child.exited;
  if (code !== 0) throw new Error(`server-start child failed (${code}):\n${child.output}`);
  return JSON.parse(child.stdoutText.trim().split('\n').at(-1));
}

await main(async () => {
  const results = new Map(trees.map((t) => [t.name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const tree of trees) {
      const before = loadavg();
      const s = await sample(tree.src);
      results.get(tree.name).push(s);
      const builds = s.runs.map((r) => r.buildS.toFixed(2)).join(', ');
      console.log(
        `  ${tree.name}: import ${s.importS.toFixed(2)} s, builds ${builds} s (load ${before} → ${loadavg()})`,
      );
    }
  }
  const s = (v) => fmt(v, 's', 2);
  for (const [name, samples] of results) {
    const first = median(samples.map((x) => x.runs[0].buildS));
    const later = median(samples.flatMap((x) => x.runs.slice(1).map((r) => r.buildS)));
    const bare = median(samples.flatMap((x) => x.bare));
    printTable(`${name}: CPU-s, median of ${RUNS} processes (baseline: a bare Fastify app, same processes)`, [
      { figure: 'import of app.ts (sources, tsx)', value: s(median(samples.map((x) => x.importS))) },
      { figure: 'template copy + database open', value: s(median(samples.flatMap((x) => x.runs.map((r) => r.dbS)))) },
      { figure: 'first build + listen', value: s(first), baseline: fmt(bare, 's', 3) },
      { figure: 'later builds + listen', value: s(later), baseline: fmt(bare, 's', 3) },
      { figure: 'close', value: s(median(samples.flatMap((x) => x.runs.map((r) => r.closeS)))) },
    ]);
  }
});
