import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTelemetry } from '../apps/server/src/db/schema/telemetry.ts';
import { audit, SHOTS_DIR } from './helpers/axe.ts';
import { chromiumPath, signIn } from './helpers/browser.ts';
import { api, BOSS, choose, startWorld, unexpected, world } from './helpers/devices-world.ts';

/** Issue 26 in Chromium: a device's History (chart and timeline) and the audit log, filtered and exported. */
const DEVICE = 'aaaa0000cafe';
const HOUR = 3_600_000;
const STEP = 20 * 60_000;

/**
 * Seven days of a device's reports every 20 minutes: the battery drains from 95 % for 16 hours,
 * charges for 4, and rests; it goes offline for an hour each evening (one `offline` point, then reports while away, then `online`). State changes are `change`
 * points (they reach the timeline), the rest plain reports.
 */
async function seedTelemetry(now: number) {
  const rows: (typeof deviceTelemetry.$inferInsert)[] = [];
  let state = '';
  for (let t = now - 7 * 24 * HOUR; t < now; t += STEP) {
    const inDay = ((t - (now - 7 * 24 * HOUR)) % (24 * HOUR)) / HOUR;
    const charging = inDay >= 16 && inDay < 20;
    const battery = Math.round(inDay < 16 ? 95 - inDay * 3.8 : charging ? 34 + (inDay - 16) * 14 : 90);
    const offline = inDay >= 21 && inDay < 22;
    const next = charging ? 'CHARGING' : inDay < 16 ? 'ACTIVE' : 'IDLE';
    const wasOffline = rows.at(-1)?.online === false;
    const kind = offline
      ? wasOffline
        ? 'report'
        : 'offline'
      : wasOffline
        ? 'online'
        : next !== state
          ? 'change'
          : 'report';
    state = next;
    rows.push({
      entity: world.acme,
      device: DEVICE,
      at: new Date(t),
      device_at: new Date(t - 900),
      kind,
      online: !offline,
      state,
      battery,
      is_charging: charging,
      fw_version: '1.5.2',
    });
  }
  await world.h.server.app.db.insert(deviceTelemetry).values(rows);
}

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'history', hex: '0a0d' } });
  await api('POST', `tenant/${world.acme}/device`, { document: { name: DEVICE, description: 'Lobby dispenser' } });
  await seedTelemetry(Date.now());
});
afterAll(async () => world.h?.close());

const history = (page: Page) => page.locator('#history');

describe.skipIf(!chromiumPath)('history and audit in Chromium', () => {
  it("shows a device's battery chart, its bands and its timeline, paged, light and dark", async () => {
    const { page, errors } = await world.h.newPage({ as: BOSS });
    await page.goto(`/device/${DEVICE}`);
    const chart = history(page).getByRole('img', { name: /^Battery over the last 24 h: from \d+ % to \d+ %/ });
    await chart.waitFor();
    expect(await chart.locator('[data-band="charging"]').count()).toBe(1);
    expect(await history(page).locator('[data-band="offline"]').count()).toBeGreaterThan(0);
    await history(page).getByText('Went offline').first().waitFor();
    await history(page).getByText('State: CHARGING').first().waitFor();

    await history(page).getByText('7 d', { exact: true }).click();
    await history(page)
      .getByRole('img', { name: /^Battery over the last 7 d/ })
      .waitFor();
    expect(await history(page).locator('[data-band="charging"]').count()).toBe(7);

    const before = await history(page).locator('.mantine-Timeline-item').count();
    await history(page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => history(page).locator('.mantine-Timeline-item').count()).toBeGreaterThan(before);

    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.evaluate((s) => {
        localStorage.setItem('fleet.theme', s);
        window.dispatchEvent(
          new StorageEvent('storage', { key: 'fleet.theme', newValue: s, storageArea: localStorage }),
        );
      }, scheme);
      await history(page).screenshot({ path: path.join(SHOTS_DIR, `device-history-section-${scheme}.png`) });
    }
    await audit(page, 'device-history', (p) =>
      history(p)
        .getByRole('img', { name: /^Battery over/ })
        .waitFor(),
    );
    expect(unexpected(errors)).toEqual([]);
  });

  it('filters the audit log and exports what it shows as CSV and JSON, named by entity and date', async () => {
    const { page, errors } = await world.h.newPage();
    await signIn(page, BOSS);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL((u) => u.pathname === '/audit');
    const rows = page.locator('table[aria-label="Audit log"] tbody tr');
    await page.getByText('session.login').first().waitFor();
    await page.getByText('account.create').first().waitFor();

    await choose(page, 'Action', 'device.create');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText(DEVICE, { exact: true }).waitFor();
    await page.getByText('1–1 of 1 entry').waitFor();

    const save = async (button: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: button }).click(),
      ]);
      const file = await download.path();
      return { name: download.suggestedFilename(), text: fs.readFileSync(file!, 'utf8') };
    };
    const day = new Date().toISOString().slice(0, 10);
    const csv = await save('Export CSV');
    expect(csv.name).toBe(`audit-${world.acme}-${day}.csv`);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('device.create');
    expect(lines[1]).toContain(DEVICE);
    const json = await save('Export JSON');
    expect(json.name).toBe(`audit-${world.acme}-${day}.json`);
    const entries = JSON.parse(json.text) as { action: string; target: { name: string } }[];
    expect(entries.map((e) => [e.action, e.target.name])).toEqual([['device.create', DEVICE]]);

    await audit(page, 'audit-log', (p) => p.getByText('session.login').first().waitFor());
    expect(unexpected(errors)).toEqual([]);
  });
});
