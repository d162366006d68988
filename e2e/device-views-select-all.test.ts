import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../apps/server/src/db/raw-sql.ts';
import { SHOTS_DIR } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn } from './helpers/browser.ts';
import { BOSS, id, rows, seed, seedGlobex, startWorld, unexpected, world } from './helpers/devices-world.ts';

/**
 * Issue 27 in Chromium: from the fleet health screen's Low battery bar to the filtered list,
 * saved as a view, every matching device selected and refreshed with the progress to its end,
 * and the list exported.
 */
const LOW = 25; // more than a page of 20, so "Select all 25 matching" is offered
const lowNames = Array.from({ length: LOW }, (_, i) => id('dddd', i));

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld();
  await seed('acme', 'dddd', LOW, () => ({ battery: 20, is_charging: false }));
  await seed('acme', 'eeee', 5, () => ({ battery: 90 }));
  await seedGlobex(); // another entity's Low devices: never counted, refreshed or exported
});
afterAll(async () => world.h?.close());

async function tickAllMatching(page: Page) {
  // The filtered page, not the one shown while it loads: ticking that would tick other devices.
  await expect
    .poll(async () => (await rows(page).getByRole('link').allTextContents()).every((t) => t.startsWith('dddd')))
    .toBe(true);
  await page.getByRole('checkbox', { name: 'Select all devices on this page' }).check();
  await page.getByRole('button', { name: `Select all ${LOW} matching` }).click();
  await page.getByText(`All ${LOW} devices matching the filters are selected.`).waitFor();
}

async function shots(page: Page, scheme: 'light' | 'dark') {
  await page.evaluate((s) => localStorage.setItem('fleet.theme', s), scheme);
  await page.reload();
  await expect.poll(() => rows(page).count()).toBe(20);
  await tickAllMatching(page);
  await page.getByRole('button', { name: 'Low battery', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Save current view…' }).waitFor();
  await page.screenshot({ path: path.join(SHOTS_DIR, `device-views-${scheme}.png`) });
  await page.keyboard.press('Escape');
}

describe.skipIf(!chromiumPath)('saved views and select all matching in Chromium', () => {
  it('Low battery bar → list → saved view → all matching refreshed with progress → export', async () => {
    const { page, errors } = await world.h.newPage();
    page.setDefaultTimeout(15_000);
    await signIn(page, BOSS);
    await page.goto(`/fleet`);
    await page.getByRole('link', { name: `Open the devices with Low battery: ${LOW} devices` }).click();
    await page.waitForURL((u) => u.pathname === '/device' && u.searchParams.get('battery') === 'Low');
    await expect.poll(() => rows(page).count()).toBe(20);

    // Save it as a shared view: the menu then names it, and the URL carries it (a link).
    await page.getByRole('button', { name: 'Views', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Save current view…' }).click();
    await page.getByLabel(/^Name/).fill('Low battery');
    await page.getByLabel('Share with everyone of the entity').check();
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.waitForURL((u) => u.searchParams.has('view') && u.searchParams.get('battery') === 'Low');
    const link = page.url();
    await page.getByRole('button', { name: 'Low battery', exact: true }).waitFor();

    // The view as a link: only the view id, and the list opens filtered.
    await page.goto(`/device?view=${new URL(link).searchParams.get('view')}`);
    await page.waitForURL((u) => u.searchParams.get('battery') === 'Low');
    await expect.poll(() => rows(page).count()).toBe(20);

    await tickAllMatching(page);
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Refresh selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Act on every matching device' });
    // The server counts first: on a loaded machine that can take a while.
    await dialog
      .getByText(`Refresh ${LOW} devices matching the filters?`, { exact: false })
      .waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: `Refresh ${LOW} devices` }).click();
    await page
      .getByText(`Done. Refresh: ${LOW} of ${LOW} devices handled`, { exact: false })
      .waitFor({ timeout: 20_000 });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const lines = fs
      .readFileSync(await (await download).path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(LOW + 1);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[0])
        .sort(),
    ).toEqual(lowNames);

    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    await shots(page, 'light');
    await shots(page, 'dark');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'device-views-phone.png'), fullPage: true });
    expect(unexpected(errors)).toEqual([]);
  }, 240_000);

  it('the landlord’s list puts every matching device into a group: choose, dry run, confirm, progress', async () => {
    const { page, errors } = await world.h.newPage({ as: ADMIN });
    page.setDefaultTimeout(15_000);
    // Low across entities: acme's 25 and globex's 15; hall_a is acme's group.
    const matching = LOW + 15;
    const openDialog = async (scheme: 'light' | 'dark') => {
      await page.evaluate((s) => localStorage.setItem('fleet.theme', s), scheme);
      await page.goto('/sdevices?battery=Low');
      await expect.poll(() => rows(page).count()).toBe(20);
      await page.getByRole('checkbox', { name: 'Select all devices on this page' }).check();
      await page.getByRole('button', { name: `Select all ${matching} matching` }).click();
      await page.getByRole('button', { name: 'Multi-Device Action' }).click();
      await page.getByRole('menuitem', { name: 'Put into group' }).click();
      const dialog = page.getByRole('dialog', { name: 'Put into group: every matching device' });
      await dialog
        .getByRole('textbox', { name: 'Group' })
        .or(dialog.getByRole('combobox', { name: 'Group' }))
        .first()
        .click();
      await page.getByRole('option', { name: 'acme: hall_a' }).click();
      await dialog
        .getByText(`${LOW} devices of ${matching} will be put into hall_a. Skipped: 15 of another entity.`)
        .waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(SHOTS_DIR, `sdevices-matching-group-${scheme}.png`) });
      return dialog;
    };
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    await page.goto('/sdevices');
    await (await openDialog('dark')).getByRole('button', { name: 'Cancel' }).click();
    await (await openDialog('light')).getByRole('button', { name: `Put ${LOW} devices` }).click();
    await page.getByText(`Done. Put into group: ${matching} devices done`).waitFor({ timeout: 20_000 });
    const inHall = await world.h.server.app.db.execute(sql`select name from devices where "group" = 'hall_a'`);
    expect(
      rowsOf<{ name: string }>(inHall)
        .map((r) => r.name)
        .sort(),
    ).toEqual(lowNames);
    expect(unexpected(errors)).toEqual([]);
  }, 120_000);
});
