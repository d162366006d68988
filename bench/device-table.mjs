/* global document */
// Navigation to a full device table in Chromium: a signed-in admin opens /device and we time
// until 20 rows are on screen, with 100,000 devices behind the list. Baseline (same run): the
// same navigation on a fleet of 40 devices (38 in the entity), so the ratio is what the fleet's size costs.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  ADMIN,
  HOST,
  fmt,
  freePort,
  login,
  main,
  median,
  min,
  onCleanup,
  printTable,
  ratio,
  root,
  spawnNode,
  tmpDir,
} from './lib.mjs';
import { CHROMIUM_ARGS } from '../scripts/lib.mjs';

const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function startFleet(devices) {
  const port = await freePort();
  const child = spawnNode(['--import', 'tsx', 'bench/device-server.ts'], {
    env: { PORT: String(port), DATA_DIR: tmpDir(), DEVICES: String(devices), DATABASE_URL: '' },
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', () => child.stdoutText.includes('"ready"') && resolve());
    child.on('exit', (code) => reject(new Error(`device server exited ${code}\n${child.output}`)));
  });
  return { child, url: `http://${HOST}:${port}` };
}

async function timeTable(browser, url) {
  const tokens = await login(url, { name: 'bench_admin', password: ADMIN.password });
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    // A fresh context each run: nothing cached, the way a person opens the console in a new tab.
    const context = await browser.newContext({ baseURL: url });
    await context.addInitScript((t) => {
      localStorage.setItem('fleet.accessToken', t.access_token);
      localStorage.setItem('fleet.refreshToken', t.refresh_token);
      localStorage.setItem('fleet.username', 'bench_admin');
      localStorage.setItem('fleet.entity', 'bench');
    }, tokens);
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto('/device');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length >= 20, null, {
      timeout: 60_000,
    });
    times.push(performance.now() - t0);
    await context.close();
  }
  return times;
}

await main(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`needs Debian chromium at ${CHROMIUM}`);
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html')))
    throw new Error('build the console first: npm run build -w apps/web');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  onCleanup(() => browser.close());
  const big = await startFleet(100_000);
  const bigTimes = await timeTable(browser, big.url);
  big.child.kill('SIGTERM');
  const small = await startFleet(40);
  const smallTimes = await timeTable(browser, small.url);
  small.child.kill('SIGTERM');
  printTable(`navigation to a full device table (20 rows) in Chromium, ${RUNS} fresh tabs each`, [
    {
      figure: '100,000 devices, median',
      value: fmt(median(bigTimes), 'ms', 0),
      baseline: fmt(median(smallTimes), 'ms', 0),
      ratio: ratio(median(bigTimes), median(smallTimes)),
      goal: '',
    },
    {
      figure: '100,000 devices, best',
      value: fmt(min(bigTimes), 'ms', 0),
      baseline: fmt(min(smallTimes), 'ms', 0),
      ratio: ratio(min(bigTimes), min(smallTimes)),
      goal: '',
    },
  ]);
  console.log('baseline: the same navigation on a fleet of 40 devices (38 in the entity)');
});
