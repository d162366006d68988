/* global document */
// Takes the README's screenshots (and ones to look at) from the built console in Debian's
// Chromium: login and the signed-in shell, light and dark. Output: docs/screenshots/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, buildIfStale, chromiumPath, root } from './lib.mjs';

const browserPath = chromiumPath();
if (!browserPath) throw new Error('Debian chromium is needed (apt-get install chromium)');
await buildIfStale();

const out = path.join(root, 'docs/screenshots');
fs.mkdirSync(out, { recursive: true });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-shots-'));
const port = 18000 + Math.floor(Math.random() * 1000);
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'screenshot-pass',
    LOG_LEVEL: 'warn',
  },
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // A small fleet so the pictures show the console at work, not empty lists.
  const api = async (method, p, token, body) => {
    const res = await fetch(`${base}/api/v1/${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return res.json();
  };
  const { access_token: token } = await api('POST', 'login', null, { name: 'admin', password: 'screenshot-pass' });
  await api('POST', 'tenant', token, { document: { name: { name: 'harbor_clinic', description: 'Harbor Clinic' } } });
  for (let i = 0; i < 14; i++) {
    const name = (0x240ac40a2e00 + i * 7).toString(16).padStart(12, '0');
    await api('POST', 'device', token, {
      document: { name, entity: 'harbor_clinic', description: `Ward ${1 + (i % 4)} dispenser` },
    });
  }
  const browser = await chromium.launch({
    executablePath: browserPath,
    args: CHROMIUM_ARGS,
  });
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 760 } });
    await context.addInitScript((s) => localStorage.setItem('fleet.theme', s), scheme);
    const page = await context.newPage();
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: path.join(out, `login-${scheme}.png`) });
    await page.getByLabel(/^Username/).fill('admin');
    await page.getByLabel(/^Password/).fill('screenshot-pass');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/entity');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, `shell-${scheme}.png`) });
    await page.getByRole('link', { name: 'Devices' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length >= 14);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, `devices-${scheme}.png`) });
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(out, `user-menu-${scheme}.png`) });
    await context.close();
  }
  await browser.close();
  console.log(`screenshots written to ${path.relative(root, out)}/`);
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
