import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, provisionDemoFleet, type DemoFleet } from '../apps/simulator/src/demo-fleet.ts';
import { startFleet, type Fleet } from '../apps/simulator/src/fleet.ts';
import path from 'node:path';
import { audit, SHOTS_DIR } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Allocating a demo device to a visitor with two dataviews and returning it to another dispenser,
 * through the kiosk manager, as `npm run demo` sets the fleet up (simulated devices answering).
 */
let h: Harness;
let demo: DemoFleet;
let fleet: Fleet;
const ADMIN_USER = DEMO_ACCOUNTS[0];

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  demo = await provisionDemoFleet({ baseUrl: h.server.url, admin: ADMIN }, 6);
  fleet = await startFleet({ devices: demo.simulated, url: h.server.mqttUrl, sleeps: false, rampMs: 200 });
});
afterAll(async () => {
  await fleet?.stop();
  await h?.close();
});

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
async function openRowMenu(page: Page, name: string, item: string) {
  await row(page, name)
    .getByRole('button', { name: `Actions for device ${name}` })
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

describe.skipIf(!chromiumPath)('allocation through the kiosk manager', () => {
  it('allocates a demo device with two dataviews, shows it ALLOCATED, and returns it to another dispenser', async () => {
    const target = demo.simulated[0]!.name;
    const { page, errors } = await h.newPage({ as: ADMIN_USER });
    await page.goto('/device');
    await row(page, target).waitFor();
    // Wait until the simulated device is online (its firmware version shows).
    await expect
      .poll(
        async () => {
          await page.reload();
          await row(page, target).waitFor();
          return row(page, target).innerText();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toMatch(/\d+\.\d+\.\d+/);

    await openRowMenu(page, target, 'Allocate');
    await page.getByRole('heading', { name: `Allocate Device ${target}` }).waitFor();
    // Invalid input first: the user ID rule and a dataview's JSON.
    await page.getByLabel(/^New user ID/).fill('no spaces');
    await page.getByRole('checkbox', { name: 'welcome_kiosk' }).check();
    const welcome = page.getByLabel('JSON for dataview welcome_kiosk');
    await expect.poll(() => welcome.inputValue()).toContain('"');
    await welcome.fill('{broken');
    await page.getByRole('button', { name: 'Allocate', exact: true }).click();
    await page.getByText('The field may contain alpha-numeric characters as well as underscores').waitFor();
    await page.getByText('Is not valid JSON').waitFor();

    await page.getByLabel(/^New user ID/).fill('visitor_42');
    await welcome.fill('{"greeting": "Hello"}');
    await page.getByRole('checkbox', { name: 'medication_panel' }).check();
    await expect.poll(() => page.getByLabel('JSON for dataview medication_panel').inputValue()).toContain('"');
    await page.getByRole('textbox', { name: 'Network Info' }).fill('{"ssid": "guest"}');
    await audit(page, 'allocate-device', (p) =>
      p.getByRole('heading', { name: `Allocate Device ${target}` }).waitFor(),
    );
    // The audit reloaded the screen: fill it again.
    await page.getByLabel(/^New user ID/).fill('visitor_42');
    await page.getByRole('checkbox', { name: 'welcome_kiosk' }).check();
    await page.getByRole('checkbox', { name: 'medication_panel' }).check();
    await expect.poll(() => page.getByLabel('JSON for dataview medication_panel').inputValue()).toContain('"');
    await page.screenshot({ path: path.join(SHOTS_DIR, 'allocate-device-filled.png'), fullPage: true });
    // Network info loaded from a .json file this time.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Load .json file for Network Info' }).click();
    await (
      await chooser
    ).setFiles({ name: 'net.json', mimeType: 'application/json', buffer: Buffer.from('{"ssid": "ward"}') });
    await expect.poll(() => page.getByRole('textbox', { name: 'Network Info' }).inputValue()).toContain('ward');
    await page.getByRole('button', { name: 'Allocate', exact: true }).click();
    await page.getByText(`Device ${target} allocated to visitor_42`).waitFor();

    // The list shows it ALLOCATED.
    await page.waitForURL('**/device');
    await expect.poll(() => row(page, target).innerText(), { timeout: 10_000 }).toContain('ALLOCATED');

    // Return it to another dispenser of the kiosk.
    await openRowMenu(page, target, 'Return Device');
    await page.getByRole('heading', { name: 'Return Device' }).waitFor();
    const choice = page.getByRole('radio', { name: 'Return to dispenser Lobby_Returns of kiosk Berlin_Lobby' });
    await choice.waitFor();
    await audit(page, 'return-device', (p) => p.getByRole('radio').first().waitFor());
    // Sortable: Capacity sorts ascending, then descending.
    const capacity = page.getByRole('columnheader', { name: /^Capacity/ });
    await capacity.getByRole('button').click();
    await expect.poll(() => capacity.getAttribute('aria-sort')).toBe('ascending');
    await capacity.getByRole('button').click();
    await expect.poll(() => capacity.getAttribute('aria-sort')).toBe('descending');
    await choice.check();
    await page.getByRole('button', { name: 'Return', exact: true }).click();
    await page.getByText(`Device ${target} returned to Lobby_Returns of kiosk Berlin_Lobby`).waitFor();
    await page.waitForURL('**/device');
    await expect.poll(() => row(page, target).innerText(), { timeout: 10_000 }).toContain('Lobby_Returns');

    // The device screen shows the allocation history.
    await page.goto(`/device/${target}`);
    const history = page.getByRole('table', { name: 'Allocation history' });
    await history.getByText('visitor_42').waitFor();
    await history.getByText('Returned to Lobby_Returns').waitFor();
    await audit(page, 'device-allocation-history', (p) =>
      p.getByRole('table', { name: 'Allocation history' }).getByText('visitor_42').waitFor(),
    );
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("goes back from Allocate Device with 'Device has no kiosk information.' for a device without a last dispenser", async () => {
    const loose = '0000beef0001';
    const created = await h.server.request('POST', `/api/v1/tenant/${demo.entity}/device`, {
      token: (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token,
      body: { document: { name: loose, description: 'no dispenser' } },
    });
    expect(created.status).toBe(201);
    const { page, errors } = await h.newPage({ as: ADMIN_USER });
    await page.goto(`/device/${loose}`);
    await page.getByRole('link', { name: 'Allocate' }).click();
    await page.getByText('Device has no kiosk information.').waitFor();
    await page.waitForURL(`**/device/${loose}`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("says 'No dispensers found' when the entity's kiosks have no dispensers", async () => {
    const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
    const api = (path: string, body: unknown) => h.server.request('POST', `/api/v1/${path}`, { token: root, body });
    await api('tenant', { document: { name: { name: 'bare', description: '' } } });
    const boss = { name: 'bare_admin', password: 'password-1' };
    await api('account', {
      document: { ...boss, email: 'b@test.example', subtype: 'admin', entity: 'bare', access: ['all'] },
    });
    expect((await api('tenant/bare/device', { document: { name: '0000beef0002', description: '' } })).status).toBe(201);
    const { page, errors } = await h.newPage({ as: boss });
    await page.goto('/device/0000beef0002/deploy');
    await page.getByRole('heading', { name: 'Return Device' }).waitFor();
    await page.getByText('No dispensers found').waitFor();
    expect(await page.getByRole('button', { name: 'Return', exact: true }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('warns with the kiosk manager message when the device has never connected and the allocation is held (202)', async () => {
    const sleeper = demo.silent[0]!;
    const { page, errors } = await h.newPage({ as: ADMIN_USER });
    await page.goto(`/device/${sleeper}`);
    await page.getByRole('link', { name: 'Allocate' }).click();
    await page.getByRole('heading', { name: `Allocate Device ${sleeper}` }).waitFor();
    await page.getByLabel(/^New user ID/).fill('visitor_7');
    await page.getByRole('button', { name: 'Allocate', exact: true }).click();
    // A demo device with no simulator has never connected: it is not said to sleep.
    await page
      .getByText(new RegExp(`^Device ${sleeper} has not connected yet: the command waits until it first connects`))
      .waitFor();
    await page.waitForURL('**/device');
    await expect.poll(() => row(page, sleeper).innerText(), { timeout: 10_000 }).toContain('ALLOCATED');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
