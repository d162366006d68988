import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../apps/server/src/db/schema.ts';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

/** A phone's width (an iPhone 12–15 held upright): below the console's `sm` breakpoint. */
const PHONE = { width: 390, height: 844 };
// Names and device ids no other file uses: the file runs on its worker's shared server.
const ENTITY = 'phone_acme';
const BOSS = { name: 'phone_boss', password: 'password-1' };
const MINUTE = 60_000;
const names = Array.from({ length: 6 }, (_, i) => `abcd0000000${i}`);

let h: Harness;

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness({ shared: true });
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  const api = (path: string, body: unknown) => h.server.request('POST', `/api/v1/${path}`, { token: root, body });
  await api('tenant', { document: { name: { name: ENTITY, description: 'acme corp' } } });
  await api('account', {
    document: { ...BOSS, email: 'phone_boss@test.example', subtype: 'admin', entity: ENTITY, access: ['all'] },
  });
  await api(`tenant/${ENTITY}/dispenser`, { document: { name: 'hall_a' } });
  // Straight into the database: the reported fields (state, battery, firmware) the API does not set.
  const now = Date.now();
  await h.server.app.db.insert(devices).values(
    names.map((name, i) => ({
      name,
      entity: ENTITY,
      description: i % 2 ? 'Second floor, by the window of the east wing' : '',
      mqtt_secret_hash: 'not-a-real-hash',
      state_current: ['ALLOCATED', 'PROVISIONING', 'ERROR'][i % 3],
      battery: [95, 40, 8][i % 3],
      is_charging: i === 1,
      fw_version: '2.0.1',
      group: 'hall_a',
      created_at: new Date(now - i * MINUTE),
      // The last one has been silent for an hour: Unresponsive, the longest card.
      updated_at: new Date(now - (i === names.length - 1 ? 60 * MINUTE : i * 1000)),
    })),
  );
});
afterAll(async () => h?.close());

/** Whether `locator` is drawn wholly inside the window's width. */
async function insideWidth(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
}

/** How far the page scrolls sideways (0: not at all). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.skipIf(!chromiumPath)('the device list on a phone', () => {
  it('shows each device’s status, battery and actions without scrolling sideways', async () => {
    const { page, context, errors } = await h.newPage();
    await signIn(page, BOSS);
    await page.setViewportSize(PHONE);
    await page.goto('/device');
    const card = (name: string) => page.getByRole('listitem', { name: `Device ${name}` });
    await card(names[0]!).waitFor();
    expect(await page.getByRole('table', { name: 'Devices' }).count()).toBe(0);
    expect(await sideways(page)).toBe(0);

    for (const [i, name] of names.entries()) {
      const item = card(name);
      await item.scrollIntoViewIfNeeded();
      const status = item.getByText(['ALLOCATED', 'PROVISIONING', 'ERROR'][i % 3]!, { exact: true });
      const battery = item.getByText(`${[95, 40, 8][i % 3]}%`, { exact: true });
      const menu = item.getByRole('button', { name: `Actions for device ${name}` });
      const provision = item.getByRole('button', { name: new RegExp(`Provision.* device ${name}`) });
      for (const part of [item, status, battery, menu, provision]) {
        expect(await part.isVisible(), `${name}: ${part.toString()}`).toBe(true);
        expect(await insideWidth(part), `${name}: ${part.toString()} inside 390 px`).toBe(true);
      }
    }
    await card(names.at(-1)!).getByText('Unresponsive').waitFor();

    // The row's actions work from the card: its menu opens inside the window.
    await card(names[0]!)
      .getByRole('button', { name: `Actions for device ${names[0]}` })
      .click();
    const del = page.getByRole('menuitem', { name: 'Delete' });
    await del.waitFor();
    expect(await insideWidth(del)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await sideways(page)).toBe(0);

    await audit(page, 'devices-list-phone', async (p) => {
      await p.getByRole('listitem', { name: `Device ${names[0]}` }).waitFor();
      expect(await sideways(p)).toBe(0);
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the table with its columns on a wide screen', async () => {
    const { page, context } = await h.newPage({ as: BOSS });
    await page.goto('/device');
    await page.getByRole('columnheader', { name: 'Battery' }).waitFor();
    expect(await page.getByRole('listitem', { name: `Device ${names[0]}` }).count()).toBe(0);
    await context.close();
  });
});
