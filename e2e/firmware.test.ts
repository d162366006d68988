import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedDevice } from '../apps/simulator/src/device.ts';
import { connectDevice, type TestDevice } from '../apps/server/test/helpers/devices.ts';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Firmware updates as an operator does them: firmware uploaded in the console, then Update
 * Firmware from a device's row menu, until the simulated device runs the new version.
 */
let h: Harness;
let device: SimulatedDevice;
const ENTITY = `fw_${randomBytes(3).toString('hex')}`;
const NAME = randomBytes(6).toString('hex');
/** A second device that stays mid-update, so the list shows an update in progress. */
const SLOW = randomBytes(6).toString('hex');
const OWNER = { name: `fw_owner_${randomBytes(3).toString('hex')}`, password: 'password-1' };
let slow: TestDevice;

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness({ shared: true });
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await h.server.request('POST', '/api/v1/tenant', {
    token: root,
    body: { document: { name: { name: ENTITY, description: 'firmware e2e' } } },
  });
  await h.server.request('POST', '/api/v1/account', {
    token: root,
    body: { document: { ...OWNER, email: 'o@x.test', subtype: 'admin', entity: ENTITY, access: ['all'] } },
  });
  const slowCreated = await h.server.request('POST', `/api/v1/tenant/${ENTITY}/device`, {
    token: root,
    body: { document: { name: SLOW, description: 'Hall dispenser', manufacturing_type: 'CC2' } },
  });
  slow = await connectDevice(h.server, ENTITY, slowCreated.body.data.mqtt);
  await slow.publish('state', { state: 'WAITING', fw_version: '1.5.1', battery: 80 });
  slow.client.on('message', (_topic, payload) => {
    const cmd = JSON.parse(payload.toString());
    if (cmd.type !== 'dfu') return;
    void slow.publish('state', { state: 'DFU' });
    void slow.publish('events', { type: 'dfu', id: cmd.id, phase: 'downloading', progress: 40 });
  });
  const created = await h.server.request('POST', `/api/v1/tenant/${ENTITY}/device`, {
    token: root,
    body: { document: { name: NAME, description: 'Lobby dispenser', manufacturing_type: 'CC2' } },
  });
  // Real time for its downloads; reboots of 0.5 s so the test sees the whole update.
  device = new SimulatedDevice({
    id: NAME,
    entity: ENTITY,
    secret: created.body.data.mqtt.password,
    url: h.server.mqttUrl,
    sleeps: false,
    timeScale: 10,
    reportEveryS: 600,
    status: { fwVersion: '1.5.1', state: 'WAITING' },
  });
  device.start();
  await device.whenOnline();
});
afterAll(async () => {
  await device?.stop();
  await slow?.close();
  await h?.close();
});

const row = (page: Page, name = NAME) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });

describe.skipIf(!chromiumPath)('firmware update from the console', () => {
  it('updates a simulated device from its row menu until its new version shows', async () => {
    const { page, errors } = await h.newPage();
    await signIn(page, OWNER);
    await uploadFirmwareInConsole(page);
    await page.goto('/device');
    await row(page).getByText('1.5.1').filter({ visible: true }).waitFor();
    await row(page)
      .getByRole('button', { name: `Actions for device ${NAME}` })
      .click();
    await page.getByRole('menuitem', { name: 'Update Firmware' }).click();
    const dialog = page.getByRole('dialog', { name: `Update the firmware of ${NAME}?` });
    await dialog.getByRole('button', { name: 'Update Firmware' }).click();
    await page.getByText(`Firmware update to 2.0.0 started on device ${NAME}`).waitFor();
    // The list refreshes every 30 s; reloading shows the device's own report sooner.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('table').waitFor();
          return row(page).getByText('2.0.0').filter({ visible: true }).count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(1);
    // The slow device, updated from the Multi-Device Action menu, shows DFU and its progress.
    await row(page, SLOW).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Update Firmware selected' }).click();
    await page
      .getByRole('dialog', { name: 'Update the firmware of 1 device?' })
      .getByRole('button', { name: 'Update Firmware' })
      .click();
    await page.getByText('Update Firmware to 1 device: 1 started').waitFor();
    await audit(page, 'firmware-update-in-progress', async (p) => {
      await row(p, SLOW).getByText('Firmware 2.0.0: downloading 40%').waitFor();
      await row(p, SLOW).getByText('DFU').waitFor();
    });
    await page.goto(`/device/${NAME}`);
    await page.getByText('Update Firmware to 2.0.0').first().waitFor();
    await audit(page, 'firmware-device-history', (p) => p.getByText('Succeeded').first().waitFor());
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

/** Uploads firmware 2.0.0 for CC2 in the entity config's Firmware dialog. */
async function uploadFirmwareInConsole(page: Page) {
  await page.goto('/entity/config');
  await page.getByRole('button', { name: 'Firmware', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Firmware — entity ${ENTITY}` });
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'fw-cc2-2.0.0.bin', mimeType: 'application/octet-stream', buffer: randomBytes(200_000) });
  await dialog.getByLabel('Version').fill('2.0.0');
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await dialog.getByRole('row').filter({ hasText: '2.0.0' }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
}
