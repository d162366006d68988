import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, signIn } from './helpers/browser.ts';
import {
  api,
  BOSS,
  CHIEF,
  choose,
  field,
  id,
  notice,
  rowOf,
  seed,
  startWorld,
  unexpected,
  WATCHER,
  world,
} from './helpers/devices-world.ts';

/** A device's life in the console: created, edited, seen by an operator, deleted. */
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUe\n-----END CERTIFICATE-----\n';

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'devices', hex: '0de0' } });
});
afterAll(async () => world.h?.close());

describe.skipIf(!chromiumPath)('devices in Chromium', () => {
  it('creates a device after the validation messages and shows its MQTT password once', async () => {
    const { page, context, errors } = await world.h.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.h.server.url });
    await signIn(page, BOSS);
    await page.goto('/device');
    await page.getByText('No devices yet').waitFor();
    await page.getByRole('link', { name: 'Add Device' }).first().click();
    await page.waitForURL((u) => u.pathname === '/device/new');
    expect(await field(page, 'Manufacturing Type').inputValue()).toBe('CC1');
    expect(await field(page, 'Manufacturing Type').getAttribute('readonly')).not.toBeNull();

    await page.getByRole('button', { name: 'Add Device' }).click();
    await page.getByText('This field is required').waitFor();
    await field(page, 'Device ID').fill('240AC40A2E48');
    await page.getByText('Has to be a 12 hex lower case digit string (eg "240ac40a2e48")').waitFor();
    await field(page, 'Lora DevEUI').fill('240ac40a');
    await page.getByText('Has to be a 16 hex lower case digit string (eg "240ac40a2e48ab3a")').waitFor();
    await field(page, 'LTE IMSI').fill('12a');
    await page.getByText('Has to be a 4 to 16 decimal digit string (eg "23432")').waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'huge.pem',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.alloc(100_001, 'a'),
    });
    await page.getByText('File is too big. Only files up to 100000 Bytes are allowed.').waitFor();

    await field(page, 'Device ID').fill('240ac40a2e48');
    await field(page, 'Lora DevEUI').fill('240ac40a2e48ab3a');
    await field(page, 'LTE IMSI').fill('23432');
    await field(page, 'Description').fill('Reception dispenser');
    await field(page, 'Version ID').fill('hw-2');
    await page.locator('input[type="file"]').setInputFiles({
      name: 'device.pem',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(PEM),
    });
    await page.getByRole('button', { name: 'Add Device' }).click();

    const dialog = page.getByRole('dialog', { name: 'Device added: its MQTT credentials' });
    await dialog.getByText('Shown once').waitFor();
    await notice(page, 'Device created');
    expect(await field(page, 'MQTT username').inputValue()).toBe('240ac40a2e48');
    const password = await field(page, 'MQTT password').inputValue();
    expect(password.length).toBeGreaterThan(15);
    await dialog.getByRole('button', { name: 'Copy MQTT password' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((u) => u.pathname === '/device');
    await rowOf(page, '240ac40a2e48').waitFor();
    expect(await page.getByText(password).count()).toBe(0);
    const saved = (await api('GET', 'device/240ac40a2e48')).body.data;
    expect(saved).toMatchObject({
      entity: world.acme,
      description: 'Reception dispenser',
      manufacturing_type: 'CC1',
      version_id: 'hw-2',
      mac_1: '240ac40a2e48ab3a',
      mac_2: '23432',
      has_certificate: true,
    });

    // The same id again: the server's 409 lands under the Device ID.
    await page.goto('/device/new');
    await field(page, 'Device ID').fill('240ac40a2e48');
    await page.getByRole('button', { name: 'Add Device' }).click();
    await page.locator('.mantine-InputWrapper-error').getByText('This Device ID is already registered').waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('edits a device, regenerates its credentials, and sends an unknown id back', async () => {
    const { page, context, errors } = await world.h.newPage({ as: BOSS });
    await page.goto('/device');
    await page.getByRole('button', { name: 'Actions for device 240ac40a2e48' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.waitForURL((u) => u.pathname === '/device/240ac40a2e48');
    expect(await field(page, 'Description').inputValue()).toBe('Reception dispenser');
    await page.getByText('Device status').waitFor();
    // Groups is a select of the entity's groups (issue 10).
    await choose(page, 'Groups', /^hall_a/);
    await field(page, 'Description').fill('Reception, left');
    await field(page, 'LTE IMSI').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice(page, 'Device saved');
    await page.waitForURL((u) => u.pathname === '/device');
    await rowOf(page, '240ac40a2e48').getByText('hall_a', { exact: true }).waitFor();
    expect((await api('GET', 'device/240ac40a2e48')).body.data).toMatchObject({
      description: 'Reception, left',
      group: 'hall_a',
      mac_2: null,
      mac_1: '240ac40a2e48ab3a',
    });

    await page.getByRole('link', { name: '240ac40a2e48' }).click();
    await page.getByRole('button', { name: 'Regenerate MQTT credentials' }).click();
    await page
      .getByRole('dialog', { name: 'Regenerate MQTT credentials?' })
      .getByRole('button', { name: 'Regenerate' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'New MQTT credentials' });
    await dialog.getByText('Shown once').waitFor();
    expect((await field(page, 'MQTT password').inputValue()).length).toBeGreaterThan(15);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.goto('/device/000000000000');
    await page.waitForURL((u) => u.pathname === '/device');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('shows operators the devices without any control that changes the registry', async () => {
    const { page, context, errors } = await world.h.newPage();
    await signIn(page, WATCHER);
    // The landlord's paths send an entity user to the entity's own screens.
    await page.goto('/sdevices');
    await page.waitForURL((u) => u.pathname === '/device');
    await rowOf(page, '240ac40a2e48').waitFor();
    for (const name of ['Add Device', 'Add Multiple Devices'])
      expect(await page.getByRole('link', { name }).count()).toBe(0);
    // Operators send commands to selected devices, but delete nothing.
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: /Vibrate selected/ }).waitFor();
    for (const name of [/Delete selected/, /Delete all devices/])
      expect(await page.getByRole('menuitem', { name }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Actions for device 240ac40a2e48' }).click();
    expect(await page.getByRole('menuitem', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'View' }).click();
    await page.getByText('Device status').waitFor();
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Regenerate MQTT credentials' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes selected devices, one device, then all of them', async () => {
    await seed(world.initech, 'cccc', 6);
    await seed(world.acme, 'ffff', 1);
    const { page, context, errors } = await world.h.newPage({ as: CHIEF });
    await page.goto('/device');
    await page.getByText('1–6 of 6 devices').waitFor();
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Delete selected' }).click();
    await notice(page, 'No devices selected');

    await field(page, `Select device ${id('cccc', 0)}`).check();
    await field(page, `Select device ${id('cccc', 1)}`).check();
    await page.getByText('2 devices selected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Delete selected' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await notice(page, '2 devices deleted');
    await page.getByText('1–4 of 4 devices').waitFor();

    await page.getByRole('button', { name: `Actions for device ${id('cccc', 2)}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await notice(page, 'Device deleted');
    await page.getByText('1–3 of 3 devices').waitFor();

    await field(page, 'Select all devices on this page').check();
    await page.getByText('3 devices selected', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Delete all devices' }).click();
    // The count, then the entity's name typed before the button enables (issue 25).
    await page.getByText(`All 3 devices of ${world.initech} will be deleted`, { exact: false }).waitFor();
    const remove = page.getByRole('button', { name: 'Yes, delete it!' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel(`Type ${world.initech} to confirm`).fill(world.initech);
    await remove.click();
    await notice(page, 'All devices deleted');
    await page.getByText('No devices yet').waitFor();
    expect((await api('GET', `tenant/${world.initech}/device`)).body.total).toBe(0);
    expect((await api('GET', `tenant/${world.acme}/device`)).body.total).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
