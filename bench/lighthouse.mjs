// Lighthouse (mobile, its default simulated throttling: slow 4G, 4× CPU) on the console's sign-in
// page served by the built server: performance score, LCP, FCP, TBT and the bytes the page loads.
// Baseline, same run and same Chromium: a bare node:http server answering a static page with one
// line of text (the floor any page meets under this throttling). Median of --runs=5 each.
// Goal (issue 16): performance ≥ 0.98, LCP ≤ 1.5 s, login scripts ≤ 150 kB (bench/login-bundle.mjs).
// Usage: node bench/lighthouse.mjs [--runs=5] [--rebuild]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS } from '../scripts/lib.mjs';
import {
  arg,
  ensureServerBuilt,
  fmt,
  freePort,
  HOST,
  main,
  median,
  onCleanup,
  printTable,
  ratio,
  root,
  startDistServer,
  tmpDir,
} from './lib.mjs';

const RUNS = arg('runs', 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium with a DevTools port for Lighthouse; closed at cleanup. */
async function launchChromium() {
  const port = await freePort();
  const child = spawn(
    CHROMIUM,
    [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${tmpDir('fleet-lh-')}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  onCleanup(() => child.kill('SIGKILL'));
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/json/version`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return port;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('Chromium did not open its DevTools port');
}

/** The baseline page: one line of text, nothing else, from node:http. */
async function startBarePage() {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="description" content="baseline"><title>Baseline</title></head><body><h1>Sign in</h1></body></html>';
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, HOST, resolve));
  onCleanup(() => new Promise((resolve) => server.close(resolve)));
  return `http://${HOST}:${port}/`;
}

async function audit(url, port) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  const a = result.lhr.audits;
  const requests = a['network-requests'].details?.items ?? [];
  const bytes = (type) =>
    requests.filter((r) => r.resourceType === type).reduce((n, r) => n + (r.transferSize ?? 0), 0);
  return {
    score: result.lhr.categories.performance.score,
    lcp: a['largest-contentful-paint'].numericValue,
    fcp: a['first-contentful-paint'].numericValue,
    tbt: a['total-blocking-time'].numericValue,
    si: a['speed-index'].numericValue,
    cls: a['cumulative-layout-shift'].numericValue,
    longTasks: (a['long-tasks']?.details?.items ?? []).map((t) => `${Math.round(t.duration)} ms ${t.url}`),
    scriptBytes: bytes('Script'),
    cssBytes: bytes('Stylesheet'),
    lcpElement: a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '?',
  };
}

await main(async () => {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html')) || process.argv.includes('--rebuild')) {
    console.log('building apps/web …');
    const { spawnSync } = await import('node:child_process');
    spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit', timeout: 180_000 });
  }
  await ensureServerBuilt({ rebuild: process.argv.includes('--rebuild') });
  const server = await startDistServer();
  const bare = await startBarePage();
  const port = await launchChromium();

  const app = [];
  const base = [];
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, so load on the box weighs on both alike.
    app.push(await audit(`${server.url}/auth/login`, port));
    base.push(await audit(bare, port));
    console.log(
      `run ${i + 1}/${RUNS}: login score ${app[i].score} LCP ${Math.round(app[i].lcp)} ms; bare page LCP ${Math.round(base[i].lcp)} ms`,
    );
  }
  const m = (xs, k) => median(xs.map((x) => x[k]));
  console.log(`LCP element of the sign-in page: ${app[0].lcpElement}`);
  console.log(`long tasks of the last run (simulated): ${app.at(-1).longTasks.join('; ') || 'none'}`);
  printTable(`Lighthouse mobile on /auth/login, median of ${RUNS} (baseline: a bare one-line page)`, [
    { figure: 'performance score', value: String(m(app, 'score')), baseline: String(m(base, 'score')), goal: '≥ 0.98' },
    {
      figure: 'largest contentful paint',
      value: fmt(m(app, 'lcp'), 'ms'),
      baseline: fmt(m(base, 'lcp'), 'ms'),
      ratio: ratio(m(app, 'lcp'), m(base, 'lcp'), true),
      goal: '≤ 1500 ms',
    },
    {
      figure: 'first contentful paint',
      value: fmt(m(app, 'fcp'), 'ms'),
      baseline: fmt(m(base, 'fcp'), 'ms'),
      ratio: ratio(m(app, 'fcp'), m(base, 'fcp'), true),
    },
    { figure: 'speed index', value: fmt(m(app, 'si'), 'ms'), baseline: fmt(m(base, 'si'), 'ms') },
    { figure: 'cumulative layout shift', value: fmt(m(app, 'cls'), '', 3), baseline: fmt(m(base, 'cls'), '', 3) },
    { figure: 'total blocking time', value: fmt(m(app, 'tbt'), 'ms'), baseline: fmt(m(base, 'tbt'), 'ms') },
    { figure: 'script bytes on the wire', value: fmt(m(app, 'scriptBytes') / 1000, 'kB') },
    { figure: 'stylesheet bytes on the wire', value: fmt(m(app, 'cssBytes') / 1000, 'kB') },
  ]);
});
