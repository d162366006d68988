import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../apps/server/src/db/schema.ts';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

let h: Harness;
let root = '';
const api = (method: string, path: string, body?: unknown) =>
  h.server.request(method, `/api/v1/${path}`, { token: root, body });

const BOSS = { name: 'boss', password: 'password-1' };
const WATCHER = { name: 'watcher', password: 'password-1' };
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUe\n-----END CERTIFICATE-----\n';
const MINUTE = 60_000;

/** Device ids: 12 lower-case hex digits, `prefix` (4 hex digits) then a counter. */
const id = (prefix: string, n: number) => `${prefix}${n.toString(16).padStart(8, '0')}`;

/** Rows straight into the database: fast, and with the reported fields the API does not set. */
async function seed(entity: string, prefix: string, count: number, shape: (i: number) => object = () => ({})) {
  const now = Date.now();
  await h.server.app.db.insert(devices).values(
    Array.from({ length: count }, (_, i) => ({
      name: id(prefix, i),
      entity,
      description: `Seeded ${i}`,
      mqtt_secret_hash: 'not-a-real-hash',
      created_at: new Date(now - i * MINUTE),
      updated_at: new Date(now - i * 1000),
      ...shape(i),
    })),
  );
}

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  for (const name of ['acme', 'globex', 'initech'])
    await api('POST', 'tenant', { document: { name: { name, description: `${name} corp` } } });
  const account = (name: string, subtype: string, entity: string) =>
    api('POST', 'account', {
      document: { name, email: `${name}@test.example`, password: 'password-1', subtype, entity, access: ['all'] },
    });
  await account(BOSS.name, 'admin', 'acme');
  await account(WATCHER.name, 'operator', 'acme');
  await account('chief', 'admin', 'initech');
  await api('POST', 'tenant/acme/dispenser', { document: { name: 'hall_a' } });
});
afterAll(async () => h?.close());

const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
// A label's text includes the required mark ' *' of required fields.
const field = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
const rows = (page: Page) => page.locator('table[aria-label="Devices"] tbody tr');
const rowOf = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(name) });
/** Console errors other than the failed requests a test provokes on purpose (and their log lines). */
const unexpected = (errors: string[]) =>
  errors.filter(
    (e) => !/Failed to load resource: the server responded with a status of (404|409)|not created|not saved/.test(e),
  );

async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

function csvFile(text: string, name = 'devices.csv') {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(text) };
}

describe.skipIf(!chromiumPath)('devices in Chromium', () => {
  it('creates a device after the validation messages and shows its MQTT password once', async () => {
    const { page, context, errors } = await h.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.server.url });
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
      entity: 'acme',
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
    const { page, context, errors } = await h.newPage();
    await signIn(page, BOSS);
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

  it('uploads a CSV: bad and duplicate rows are reported, the good ones are added', async () => {
    await api('POST', 'tenant/acme/device', { document: { name: 'aaaa00000001', description: 'exists' } });
    const { page, context, errors } = await h.newPage();
    await signIn(page, BOSS);
    await page.goto('/device');
    await page.getByRole('link', { name: 'Add Multiple Devices' }).click();
    await page.waitForURL((u) => u.pathname === '/devices/new-multiple');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download a template' }).click();
    const template = await download;
    expect(template.suggestedFilename()).toBe('devices-template.csv');
    const text = fs.readFileSync(await template.path(), 'utf8');
    expect(text.match(/^[0-9a-f]{12},/gm)).toHaveLength(3);

    await page.getByRole('button', { name: 'Add Devices' }).click();
    await notice(page, 'Please upload a valid CSV and enter the manufacturing type.');

    const input = page.locator('input[type="file"]');
    await input.setInputFiles(csvFile('id,description\n"broken\n'));
    await notice(page, 'Failed to parse CSV file. Please check the format.');

    const csv = [
      '\uFEFFDevice ID,Description,Version ID',
      'aaaa00000010,"Hall, east",1.0',
      'NOT-AN-ID,Bad one,',
      'aaaa00000001,Already registered,',
      '',
      'aaaa00000011,"Quote ""B""",2.0',
      'aaaa00000010,Listed twice,',
      'aaaa00000012,Third,',
    ].join('\r\n');
    await input.setInputFiles(csvFile(csv));
    await page.getByText('Preview: 6 devices in the file').waitFor();
    await page.getByText('+ 1 more device').waitFor();
    const invalid = page.getByRole('table', { name: 'Rows that will not be sent' });
    await invalid.getByText('Device ID: listed twice (also on line 2)').waitFor();
    await invalid.getByText(/Has to be a 12 hex/).waitFor();

    await field(page, 'Manufacture type').fill('Dispenser v2');
    await page.getByRole('button', { name: 'Add Devices' }).click();
    await notice(page, 'Failed to add devices. Please try again.');
    const failed = page.getByRole('table', { name: 'Rows not added' });
    await failed
      .getByRole('row', { name: /aaaa00000001/ })
      .getByText('This Device ID is already registered')
      .waitFor();
    await failed
      .getByRole('row', { name: /NOT-AN-ID/ })
      .getByText('Not sent: invalid')
      .waitFor();
    expect(await failed.locator('tbody tr').count()).toBe(3);
    await page.getByText('3 added · 1 failed · 2 invalid').waitFor();
    for (const name of ['aaaa00000010', 'aaaa00000011', 'aaaa00000012']) {
      const { body } = await api('GET', `device/${name}`);
      expect(body.data.manufacturing_type).toBe('CC1');
    }
    expect((await api('GET', 'device/aaaa00000011')).body.data).toMatchObject({
      description: 'Quote "B"',
      version_id: '2.0',
    });
    await page.getByRole('button', { name: 'Retry failed rows (1)' }).click();
    await notice(page, 'Failed to add devices. Please try again.');

    // A clean file: everything is added and the list opens.
    await input.setInputFiles(csvFile('device_id\naaaa00000020\naaaa00000021\n'));
    await page.getByText('Preview: 2 devices in the file').waitFor();
    await page.getByRole('button', { name: 'Add Devices' }).click();
    await notice(page, '2 devices added successfully.');
    // Their credentials are offered once (issue 25), then the list opens.
    await page.getByRole('heading', { name: '2 devices added' }).waitFor();
    await page.getByRole('button', { name: 'Go to the device list' }).click();
    await page.waitForURL((u) => u.pathname === '/device');
    await rowOf(page, 'aaaa00000021').waitFor();
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('filters and pages the landlord list through the server, keeping both in the URL', async () => {
    const states = ['ALLOCATED', 'ERROR', 'WAITING', 'DFU', null];
    await seed('globex', 'bbbb', 45, (i) => ({
      state_current: states[i % 5],
      battery: [90, 60, 20][i % 3],
      is_charging: i % 4 === 0,
      fw_version: i % 2 ? '1.4.0' : '1.5.2',
      updated_at: new Date(Date.now() - (i % 9 === 0 ? 45 * MINUTE : i * 1000)),
    }));
    const { page, context, errors } = await h.newPage();
    await signIn(page);
    await page.goto('/sdevices');
    await page.getByRole('columnheader', { name: 'Entity' }).waitFor();
    await page.getByRole('button', { name: /^Filters/ }).click();
    await choose(page, 'Entity', 'globex');
    await page.waitForURL((u) => u.searchParams.get('entity') === 'globex');
    await page.getByText('45 devices match').waitFor();
    await choose(page, 'Status', 'ERROR');
    await page.getByText('9 devices match').waitFor();
    await choose(page, 'Battery', /Charging/);
    // i ≡ 1 (mod 5) and i ≡ 0 (mod 4): 16, 36.
    await page.getByText('2 devices match').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => rows(page).count()).toBe(2);
    for (const name of [id('bbbb', 16), id('bbbb', 36)]) {
      await rowOf(page, name).getByLabel('Charging').waitFor();
      await rowOf(page, name).getByText('ERROR', { exact: true }).waitFor();
    }
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(new URL(page.url()).search).toBe('?entity=globex&status=ERROR&battery=Charging');

    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((u) => u.search === '');
    await page.getByRole('button', { name: /^Filters/ }).click();
    await choose(page, 'Entity', 'globex');
    await choose(page, 'Battery', /High/);
    await page.getByText('15 devices match').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('1–15 of 15 devices').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((u) => u.search === '');
    await page.getByRole('button', { name: /^Filters/ }).click();
    await choose(page, 'Entity', 'globex');
    await page.getByRole('button', { name: 'Done' }).click();

    await field(page, 'Rows per page').selectOption('10');
    await page.getByText('1–10 of 45 devices').waitFor();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText('11–20 of 45 devices').waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    // Newest first: seeded device i was created i minutes ago.
    await expect.poll(() => rows(page).first().getByRole('link').textContent()).toBe(id('bbbb', 10));
    await page.reload();
    await page.getByText('11–20 of 45 devices').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(new URL(page.url()).searchParams.get('size')).toBe('10');

    // Device 18 last reported 45 minutes ago: its row is marked unresponsive.
    const stale = rowOf(page, id('bbbb', 18));
    await stale.getByText('Unresponsive').waitFor();
    expect(await stale.getAttribute('data-unresponsive')).toBe('true');
    expect(await rowOf(page, id('bbbb', 17)).getAttribute('data-unresponsive')).toBeNull();

    await page.getByRole('button', { name: /Device ID/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'name' && !u.searchParams.has('page'));
    await expect.poll(() => rows(page).first().getByRole('link').textContent()).toBe(id('bbbb', 0));
    await field(page, 'Search devices').fill('Seeded 44');
    await page.waitForURL((u) => u.searchParams.get('search') === 'Seeded 44');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets the landlord add a device to a chosen entity', async () => {
    const { page, context, errors } = await h.newPage();
    await signIn(page);
    await page.goto('/sdevices');
    await page.getByRole('link', { name: 'Add Device' }).first().click();
    await page.waitForURL((u) => u.pathname === '/sdevices/new');
    await field(page, 'Device ID').fill('abcdef000001');
    await page.getByRole('button', { name: 'Add Device' }).click();
    await page.getByText('This field is required').waitFor();
    await choose(page, 'Entity', /^initech/);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await page
      .getByRole('dialog', { name: 'Device added: its MQTT credentials' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.waitForURL((u) => u.pathname === '/sdevices');
    await rowOf(page, 'abcdef000001').getByText('initech', { exact: true }).waitFor();
    expect((await api('GET', 'tenant/initech/device/abcdef000001')).status).toBe(200);

    // The landlord's bulk upload names the entity too.
    await page.goto('/devices/new-multiple');
    await page.getByRole('combobox', { name: 'Entity', exact: true }).waitFor();
    await api('DELETE', 'device/abcdef000001');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes selected devices, one device, then all of them', async () => {
    await seed('initech', 'cccc', 6);
    await seed('acme', 'ffff', 1);
    const { page, context, errors } = await h.newPage();
    await signIn(page, { name: 'chief', password: 'password-1' });
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
    await page.getByText('All 3 devices of initech will be deleted', { exact: false }).waitFor();
    const remove = page.getByRole('button', { name: 'Yes, delete it!' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel('Type initech to confirm').fill('initech');
    await remove.click();
    await notice(page, 'All devices deleted');
    await page.getByText('No devices yet').waitFor();
    expect((await api('GET', 'tenant/initech/device')).body.total).toBe(0);
    expect((await api('GET', 'tenant/acme/device')).body.total).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows operators the devices without any control that changes the registry', async () => {
    const { page, context, errors } = await h.newPage();
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

  it('has no serious accessibility violations on the device screens, light and dark', async () => {
    await seed('acme', 'dddd', 12, (i) => ({
      state_current: ['ALLOCATED', 'PROVISIONING', 'ERROR', 'BOOTING', 'RETIRED', null][i % 6],
      battery: [95, 70, 35, null][i % 4],
      is_charging: i % 3 === 0,
      fw_version: i % 2 ? '2.0.1' : null,
      group: i % 2 ? 'hall_a' : null,
      updated_at: new Date(Date.now() - (i === 3 ? 60 * MINUTE : i * 70_000)),
    }));
    const { page, context, errors } = await h.newPage();
    await signIn(page, BOSS);
    await page.goto('/device');
    await audit(page, 'devices-list', (p) => p.getByText(/of \d+ devices/).waitFor());
    await page.goto('/device?status=ERROR');
    await audit(page, 'devices-list-filters', async (p) => {
      await p.getByRole('button', { name: /^Filters/ }).click();
      await p.getByText('2 devices match').waitFor();
    });
    await page.goto('/device?search=nothing-matches-this');
    await audit(page, 'devices-list-no-match', (p) => p.getByText('No devices match these filters').waitFor());
    await page.goto('/device/new');
    await audit(page, 'devices-create', async (p) => {
      await field(p, 'Device ID').fill('nope');
      await p.getByRole('button', { name: 'Add Device' }).click();
      await p.getByText(/Has to be a 12 hex/).waitFor();
    });
    await page.goto('/device/240ac40a2e48');
    await audit(page, 'devices-edit', (p) => p.getByText('Device status').waitFor());
    await page.goto('/devices/new-multiple');
    const preview = [
      'Device ID,Description',
      ...Array.from({ length: 8 }, (_, i) => `${id('eeee', i)},Unit ${i}`),
      'bad-id,Broken',
    ].join('\n');
    await audit(page, 'devices-bulk-preview', async (p) => {
      await p.locator('input[type="file"]').setInputFiles(csvFile(preview));
      await p.getByText('+ 4 more devices').waitFor();
    });
    // Only rows that fail whatever happens, so the light and dark runs show the same results.
    const failing = 'Device ID\n240ac40a2e48\naaaa00000010\nXYZ\n';
    await audit(page, 'devices-bulk-failures', async (p) => {
      await field(p, 'Manufacture type').fill('Dispenser v2');
      await p.locator('input[type="file"]').setInputFiles(csvFile(failing));
      await p.getByRole('button', { name: 'Add Devices' }).click();
      await p.getByText('0 added · 2 failed · 1 invalid').waitFor();
    });

    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await signIn(page);
    await page.goto('/sdevices?entity=globex&size=10');
    await audit(page, 'devices-landlord-list', (p) => p.getByText('1–10 of 45 devices').waitFor());
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await signIn(page, { name: 'chief', password: 'password-1' });
    await page.goto('/device');
    await audit(page, 'devices-list-empty', (p) => p.getByText('No devices yet').waitFor());
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
