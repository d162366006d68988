// What a cold page load of the console costs Chromium: CPU seconds of every Chromium process and
// the number of requests, for a new browser context (no HTTP or code cache, as each end-to-end test
// context is) opening the landlord's first screen, /sdevices, signed in. Beside it, in the same
// rounds: the sign-in page (/auth/login) and a static file (/favicon.svg), the fixed cost of a new
// context and a navigation. Rounds alternate the three pages; the table shows medians.
// Usage: node bench/page-load.mjs [--rounds=5] [--rebuild]   (the built console and server;
// WEB_DIST=<dir> serves another build of the console, to compare two builds in alternate runs)
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scripts/lib.mjs';
import {
  arg,
  cpuTimeMs,
  ensureServerBuilt,
  fmt,
  loadavg,
  login,
  main,
  median,
  onCleanup,
  printTable,
  ratio,
  startDistServer,
} from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROUNDS = arg('rounds', 5);

/** CPU seconds used so far by every Chromium process below this one (the bench's own browser). */
function chromiumCpu() {
  const procs = new Map();
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      procs.set(Number(pid), { name, ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) });
    } catch {
      // ended while we looked
    }
  }
  const mine = (pid) => {
    for (let p = procs.get(pid); p; p = procs.get(p.ppid)) if (p.ppid === process.pid) return true;
    return false;
  };
  let ms = 0;
  for (const [pid, p] of procs) if (/chrom/i.test(p.name) && mine(pid)) ms += cpuTimeMs(pid) ?? 0;
  return ms / 1000;
}

/** One cold load: a new context, the page until its screen is shown and the network is idle. */
async function coldLoad(browser, url, { storageState, ready }) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 }, storageState });
  const page = await context.newPage();
  let requests = 0;
  page.on('request', () => requests++);
  const cpu0 = chromiumCpu();
  const t0 = performance.now();
  await ready(page);
  await page.waitForLoadState('networkidle');
  const wall = performance.now() - t0;
  // Let the processes' counters catch up (they are read in whole ticks).
  await new Promise((r) => setTimeout(r, 200));
  const cpu = chromiumCpu() - cpu0;
  await context.close();
  return { cpu, wall, requests };
}

await main(async () => {
  await ensureServerBuilt({ rebuild: process.argv.includes('--rebuild') });
  const server = await startDistServer();
  const session = await login(server.url);
  const storageState = {
    cookies: [],
    origins: [
      {
        origin: server.url,
        localStorage: Object.entries({
          'fleet.username': session.logged_in_as,
          'fleet.entity': session.entity ?? 'landlord',
          'fleet.refreshToken': session.refresh_token,
          'fleet.accessToken': session.access_token,
        }).map(([name, value]) => ({ name, value })),
      },
    ],
  };
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  onCleanup(() => browser.close());
  const pages = {
    'static file (/favicon.svg)': { ready: (p) => p.goto('/favicon.svg') },
    'sign-in page (/auth/login)': {
      ready: async (p) => {
        await p.goto('/auth/login');
        await p.getByRole('button', { name: 'Sign in' }).waitFor();
      },
    },
    'console, /sdevices signed in': {
      storageState,
      ready: async (p) => {
        await p.goto('/sdevices');
        await p.getByRole('navigation', { name: 'Main' }).waitFor();
        await p.getByRole('table').first().waitFor();
      },
    },
  };
  const results = Object.fromEntries(Object.keys(pages).map((k) => [k, []]));
  await coldLoad(browser, server.url, pages['static file (/favicon.svg)']); // the browser's own first-use costs
  const load0 = loadavg();
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, opts] of Object.entries(pages)) results[name].push(await coldLoad(browser, server.url, opts));
  const med = (name, key) => median(results[name].map((r) => r[key]));
  const STATIC = 'static file (/favicon.svg)';
  printTable(
    `Cold page loads in Chromium, a new context each, medians of ${ROUNDS} rounds (load ${load0} → ${loadavg()})`,
    Object.keys(pages).flatMap((name) => [
      {
        figure: `${name}: Chromium CPU`,
        value: fmt(med(name, 'cpu'), 's', 2),
        baseline: fmt(med(STATIC, 'cpu'), 's', 2),
        ratio: ratio(med(name, 'cpu'), med(STATIC, 'cpu')),
      },
      { figure: `${name}: requests`, value: med(name, 'requests'), baseline: med(STATIC, 'requests') },
      { figure: `${name}: wall`, value: fmt(med(name, 'wall') / 1000, 's', 2) },
    ]),
  );
});
