import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateways, type GatewayFleet } from '../apps/simulator/src/beacon-gateway.ts';
import { provisionBeaconWard, type BeaconWardSetup } from '../apps/simulator/src/demo-beacons.ts';
import { DEMO_ACCOUNTS, DEMO_ENTITY, provisionDemoFleet } from '../apps/simulator/src/demo-fleet.ts';
import { SHOTS_DIR, audit, seriousViolations } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * The beacon demo as `npm run demo` sets it up: gateways in four rooms hearing six patients'
 * beacons over the embedded broker, and an admin watching /beacon-demo in Chromium. A seventh
 * beacon is worn but not configured until the test adds it in the Manage Beacons modal.
 */
let h: Harness;
let ward: BeaconWardSetup;
let gateways: GatewayFleet;
/** Reminders the gateways took, by beacon. */
const reminded: string[] = [];
const ADMIN_USER = DEMO_ACCOUNTS[0];
const UNCONFIGURED = 'c3a1b2d49901';

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  const api = { baseUrl: h.server.url, admin: ADMIN };
  await provisionDemoFleet(api, 3);
  ward = await provisionBeaconWard(api);
  gateways = await startGateways({
    gateways: ward.gateways,
    beacons: [...ward.beacons, UNCONFIGURED],
    url: h.server.mqttUrl,
    scanMs: 500,
    moveChance: 0,
    onReminder: (_gateway, r) => reminded.push(r.payload.beacon_mac),
  });
  // Every gateway online and heard from before the screen first asks.
  const token = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  const online = async () =>
    (await h.server.request('GET', `/api/v1/tenant/${DEMO_ENTITY}/beacon-events?limit=1`, { token })).body.data.stats
      .gateways_online;
  for (let i = 0; i < 50 && (await online()) !== ward.gateways.length; i++)
    await new Promise((r) => setTimeout(r, 300));
});
afterAll(async () => {
  await gateways?.stop();
  await h?.close();
});

const stat = (page: Page, label: string) => page.getByRole('group', { name: label });
const screenAlive = async (page: Page) => {
  await page.getByRole('status', { name: 'Connected' }).waitFor();
  await page.getByTestId('feed-item').first().waitFor({ timeout: 10_000 });
};

describe.skipIf(!chromiumPath)('beacon monitoring', () => {
  it('fills from the simulated gateways: connected, live feed, active beacons, stats and history', async () => {
    const { page, errors } = await h.newPage({ as: ADMIN_USER });
    await page.goto('/beacon-demo');
    await screenAlive(page);
    await expect.poll(() => page.getByTestId('active-beacon').count(), { timeout: 10_000 }).toBe(6);
    await expect.poll(() => stat(page, 'Devices Online').innerText()).toContain(String(ward.gateways.length));
    await expect.poll(() => stat(page, 'Active Beacons').innerText()).toContain('6');
    expect(await stat(page, 'Total Events').innerText()).toMatch(/\d+/);
    // The history table has the spec's columns and rows with an RSSI badge and a status.
    const table = page.getByRole('table');
    for (const column of ['Time', 'Patient', 'Room', 'Beacon MAC', 'RSSI', 'Medications', 'Status'])
      await table.getByRole('columnheader', { name: column }).waitFor();
    await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(2);
    await table
      .getByText(/^(Sent|Pending)$/)
      .first()
      .waitFor();
    // Ada's dose is due now: her reminder went out, once. (Other patients' doses are at fixed
    // times, so by the clock one of them may be due too: Dijkstra's at 07:00, from 7 to 8.)
    const ada = ward.beacons[0];
    await expect.poll(() => reminded.filter((mac) => mac === ada).length, { timeout: 10_000 }).toBe(1);
    await audit(page, 'beacon-demo', screenAlive);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('adds a beacon in the modal and shows its first sighting in the feed', async () => {
    const { page, errors } = await h.newPage({ as: ADMIN_USER });
    await page.goto('/beacon-demo');
    await screenAlive(page);
    await page.getByRole('button', { name: 'Manage Beacons' }).click();
    const modal = page.getByRole('dialog', { name: 'Manage Beacons' });
    await modal.getByTestId('beacon-config').first().waitFor();
    expect(await modal.getByTestId('beacon-config').count()).toBe(6);

    const add = modal.getByRole('button', { name: 'Add Beacon' });
    expect(await add.isDisabled()).toBe(true);
    expect(await modal.getByRole('button', { name: 'Remove medication 1' }).isDisabled()).toBe(true);
    await modal.getByLabel(/^Beacon MAC/).fill('C3:A1:B2:D4:99:01');
    await modal.getByLabel(/^Patient Name/).fill('Katherine Johnson');
    await modal.getByLabel(/^Room Number/).fill('104');
    await modal.getByLabel('Medication 1 name').fill('Ibuprofen');
    expect(await add.isDisabled()).toBe(true); // no dosage yet
    await modal.getByLabel('Medication 1 dosage').fill('200 mg');
    expect(await modal.getByLabel('Medication 1 time').inputValue()).toBe('08:00');
    for (let i = 0; i < 4; i++) await modal.getByRole('button', { name: 'Add Medication' }).click();
    expect(await modal.getByRole('button', { name: 'Add Medication' }).isDisabled()).toBe(true);
    for (let i = 5; i > 1; i--) await modal.getByRole('button', { name: `Remove medication ${i}` }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS_DIR}/beacon-manage-light.png` });
    await add.click();
    await page.getByText('Beacon configuration created').waitFor();
    await modal.getByText('Katherine Johnson').waitFor();
    expect(await modal.getByText('c3a1b2d49901', { exact: false }).count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    // The gateways already hear that beacon: once configured, its sightings are events.
    await page.getByTestId('feed-item').filter({ hasText: 'Katherine Johnson' }).first().waitFor({ timeout: 10_000 });
    await page.getByTestId('active-beacon').filter({ hasText: 'Katherine Johnson' }).waitFor();

    // The modal in dark, with the new beacon in its list.
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await screenAlive(page);
    await page.getByRole('button', { name: 'Manage Beacons' }).click();
    await modal.getByText('Katherine Johnson').waitFor();
    await page.waitForTimeout(350);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS_DIR}/beacon-manage-dark.png` });
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'light'));
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
