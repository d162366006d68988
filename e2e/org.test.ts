import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../apps/server/src/db/schema.ts';
import { auditAt } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/** Sites, kiosks, groups (dispensers), put-device and the entity config, as a person uses them. */

let h: Harness;
let root = '';
const api = (method: string, path: string, body?: unknown) =>
  h.server.request(method, `/api/v1/${path}`, { token: root, body });
const BOSS = { name: 'boss', password: 'password-1' };
const API_NAME = 'The field may contain alpha-numeric characters as well as underscores';
const TOO_BIG = 'File is too big. Only files up to 100000 Bytes are allowed.';

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await api('POST', 'tenant', { document: { name: { name: 'acme', description: 'Acme corp' } } });
  await api('POST', 'account', {
    document: {
      name: BOSS.name,
      email: 'boss@test.example',
      password: BOSS.password,
      subtype: 'admin',
      entity: 'acme',
      access: ['all'],
    },
  });
  await h.server.app.db.insert(devices).values(
    ['0000aaaa0001', '0000aaaa0002'].map((name) => ({
      name,
      entity: 'acme',
      mqtt_secret_hash: 'x',
      description: 'Seeded',
    })),
  );
});
afterAll(async () => h?.close());

// A label's text includes the required mark ' *' of required fields.
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));
const notice = (page: Page, text: string | RegExp) => page.getByText(text).first().waitFor();
const rowOf = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(`^${name}\\b`) });
const save = (page: Page) => page.getByRole('button', { name: 'Save', exact: true }).click();
async function choose(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}
async function confirmDelete(page: Page, label: string) {
  await page.getByRole('button', { name: label }).click();
  await page.getByRole('button', { name: 'Yes, delete it!' }).click();
}
const jsonFile = (text: string, name = 'info.json') => ({
  name,
  mimeType: 'application/json',
  buffer: Buffer.from(text),
});
async function loadJson(page: Page, label: string, file: ReturnType<typeof jsonFile>) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Load .json file for ${label}` }).click();
  await (await chooser).setFiles(file);
}

describe.skipIf(!chromiumPath)('the organisation in Chromium', () => {
  it('creates a site after the validation messages, loads JSON files, edits and deletes it', async () => {
    const { page } = await h.pageAs(BOSS);
    await page.getByRole('link', { name: 'Sites' }).click();
    await page.getByText('No sites yet').waitFor();
    await page.getByRole('link', { name: 'Add Site' }).click();

    await field(page, 'Name').fill('bad name');
    await field(page, 'Number').fill('12a');
    await field(page, 'Latitude').fill('91');
    await field(page, 'Alloc Info').fill('{nope');
    await save(page);
    await page.getByText(API_NAME).waitFor();
    await page.getByText('Has to be a number').waitFor();
    await page.getByText('Has to be a latitude from -90 to 90 with at most 18 decimals').waitFor();
    await page.getByText('Is not valid JSON').waitFor();

    // A file over 100000 bytes, then one that is not JSON: neither is loaded.
    await loadJson(page, 'Global Info', jsonFile(`{"pad":"${'x'.repeat(100_001)}"}`));
    await page.getByText(TOO_BIG).waitFor();
    await loadJson(page, 'Global Info', jsonFile('{"a": 1,,}', 'broken.json'));
    await page.getByText(/^broken\.json: .*JSON/).waitFor();
    expect(await field(page, 'Global Info').inputValue()).toBe('');
    await loadJson(page, 'Global Info', jsonFile('{"welcome": "Hello"}'));
    await expect.poll(() => field(page, 'Global Info').inputValue()).toBe('{"welcome": "Hello"}');

    await field(page, 'Name').fill('Berlin_HQ');
    await field(page, 'Street').fill('Unter den Linden');
    await field(page, 'Number').fill('77');
    await field(page, 'Postal Code').fill('10117');
    await field(page, 'Latitude').fill('52.516275');
    await field(page, 'Longitude').fill('13.377704');
    await field(page, 'Alloc Info').fill('{"slots": 4}');
    await save(page);
    await notice(page, 'Site created');
    await expect.poll(() => page.url()).toMatch(/\/site$/);
    await expect.poll(() => rowOf(page, 'Berlin_HQ').innerText()).toMatch(/Unter den Linden 77\s+10117/);

    await page.getByRole('link', { name: 'Edit site Berlin_HQ' }).click();
    await expect.poll(() => field(page, 'Global Info').inputValue()).toContain('"welcome": "Hello"');
    await field(page, 'Description').fill('Head office');
    await save(page);
    await notice(page, 'Site saved');
    await expect.poll(() => rowOf(page, 'Berlin_HQ').innerText()).toContain('Head office');

    await page.getByRole('link', { name: 'Add Site' }).click();
    await field(page, 'Name').fill('Spare');
    await field(page, 'Latitude').fill('48.1');
    await field(page, 'Longitude').fill('11.5');
    await save(page);
    await notice(page, 'Site created');
    await confirmDelete(page, 'Delete site Spare');
    await notice(page, 'Site deleted');
    await expect.poll(() => rowOf(page, 'Spare').count()).toBe(0);

    // An unknown name goes back.
    await page.goto('/site/Nowhere');
    await expect.poll(() => page.url()).toMatch(/\/site$/);
  });

  it('creates a kiosk at a site (its coordinates fill in), edits and deletes one', async () => {
    const { page } = await h.pageAs(BOSS);
    await page.getByRole('link', { name: 'Kiosks' }).click();
    await page.getByText('No kiosks yet').waitFor();
    await page.getByRole('link', { name: 'Add Kiosk' }).click();
    await field(page, 'Name').fill('Lobby');
    await save(page);
    await expect.poll(() => page.getByText('This field is required').count()).toBeGreaterThan(0);
    await choose(page, 'Site', 'Berlin_HQ');
    await expect.poll(() => field(page, 'Latitude').inputValue()).toBe('52.516275');
    expect(await field(page, 'Floor').isDisabled()).toBe(true);
    await save(page);
    await notice(page, 'Kiosk created');
    await expect.poll(() => rowOf(page, 'Lobby').innerText()).toContain('Berlin_HQ');

    await page.getByRole('link', { name: 'Add Kiosk' }).click();
    await field(page, 'Name').fill('Pop_up');
    await field(page, 'Latitude').fill('50.1');
    await field(page, 'Longitude').fill('8.6');
    await field(page, 'Floor').fill('two');
    await save(page);
    await page.getByText('Has to be a number').waitFor();
    await field(page, 'Floor').fill('-1');
    await save(page);
    await notice(page, 'Kiosk created');
    await page.getByRole('link', { name: 'Edit kiosk Pop_up' }).click();
    await field(page, 'Description').fill('Summer only');
    await save(page);
    await notice(page, 'Kiosk saved');
    await expect.poll(() => rowOf(page, 'Pop_up').innerText()).toMatch(/-1\s+Summer only/);
    await confirmDelete(page, 'Delete kiosk Pop_up');
    await notice(page, 'Kiosk deleted');
    await expect.poll(() => rowOf(page, 'Pop_up').count()).toBe(0);
  });

  it('creates and edits a group, puts devices in it up to its capacity and sees them in the device list', async () => {
    const { page } = await h.pageAs(BOSS);
    await page.getByRole('link', { name: 'Groups' }).click();
    await page.getByText('No groups yet').waitFor();
    await page.getByRole('link', { name: 'Add Group' }).click();
    await field(page, 'Name').fill('Door_A');
    await field(page, 'Capacity').fill('1');
    await choose(page, 'Kiosk', 'Lobby');
    await save(page);
    await notice(page, 'Group created');
    await expect.poll(() => rowOf(page, 'Door_A').innerText()).toMatch(/0 \/ 1/);

    await page.getByRole('link', { name: 'Edit group Door_A' }).click();
    await choose(page, 'Sites', 'Berlin_HQ');
    await field(page, 'Description').fill('Left of the entrance');
    await save(page);
    await notice(page, 'Group saved');
    await expect.poll(() => rowOf(page, 'Door_A').innerText()).toContain('Berlin_HQ');

    await page.getByRole('link', { name: 'Edit group Door_A' }).click();
    await page.getByText('No devices in this group yet.').waitFor();
    await field(page, 'Device ID').fill('0000aaaa0001');
    await page.getByRole('button', { name: 'Put in group' }).click();
    await notice(page, 'Device 0000aaaa0001 put in Door_A');
    await page.getByRole('link', { name: '0000aaaa0001' }).waitFor();
    await field(page, 'Device ID').fill('0000aaaa0002');
    await page.getByRole('button', { name: 'Put in group' }).click();
    await notice(page, 'Group Door_A is full: it holds 1 of 1 devices');

    await page.getByRole('link', { name: 'Devices' }).click();
    await expect.poll(() => page.getByRole('row', { name: /0000aaaa0001/ }).innerText()).toContain('Door_A');

    // Deleting the group holding it is refused, naming the device.
    await page.goto('/dispenser');
    await confirmDelete(page, 'Delete group Door_A');
    await notice(page, /Group Door_A is still used by devices 0000aaaa0001/);
    await page.getByRole('link', { name: 'Add Group' }).click();
    await field(page, 'Name').fill('Spare_group');
    await save(page);
    await notice(page, 'Group created');
    await confirmDelete(page, 'Delete group Spare_group');
    await notice(page, 'Group deleted');
    await expect.poll(() => rowOf(page, 'Spare_group').count()).toBe(0);
  });

  it('offers the groups in the device create and edit forms', async () => {
    const { page } = await h.pageAs(BOSS);
    await api('POST', 'tenant/acme/dispenser', { document: { name: 'Door_B', capacity: 5 } });
    await page.goto('/device/new');
    await field(page, 'Device ID').fill('0000aaaa0003');
    await choose(page, 'Groups', /^Door_B/);
    await page.getByRole('button', { name: 'Add Device' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(async () => (await api('GET', 'tenant/acme/device/0000aaaa0003')).body?.data?.group)
      .toBe('Door_B');
    await page.goto('/device/0000aaaa0002');
    await choose(page, 'Groups', /^Door_B/);
    await save(page);
    await notice(page, 'Device saved');
    expect((await api('GET', 'tenant/acme/device/0000aaaa0002')).body.data.group).toBe('Door_B');
  });

  it('saves the entity config and returns home; the landlord edits any entity', async () => {
    const { page } = await h.pageAs(BOSS);
    await page.getByRole('button', { name: /^Active entity: acme/ }).click();
    await expect.poll(() => page.url()).toMatch(/\/entity\/config$/);
    await expect.poll(() => field(page, 'Name').inputValue()).toBe('acme');
    expect(await field(page, 'Name').getAttribute('readonly')).not.toBeNull();
    await loadJson(page, 'Unalloc Info', jsonFile(`{"pad":"${'x'.repeat(100_001)}"}`));
    await page.getByText(TOO_BIG).waitFor();
    await field(page, 'Description').fill('Acme corporation');
    await field(page, 'Network Info').fill('{"ssid": "acme"}');
    await field(page, 'devicePath').fill('/data/acme');
    await choose(page, 'license_tier', 'pro');
    await save(page);
    await notice(page, 'Entity config saved');
    await expect.poll(() => page.url()).not.toMatch(/\/entity\/config$/);
    const config = (await api('GET', 'tenant/acme/config')).body.data;
    expect(config).toMatchObject({
      description: 'Acme corporation',
      networkinfo: { ssid: 'acme' },
      devicePath: '/data/acme',
      license_tier: 'pro',
    });

    const landlord = await h.pageAs(ADMIN);
    await landlord.page.goto('/entity');
    await landlord.page.getByRole('link', { name: 'Edit entity acme' }).click();
    await expect.poll(() => field(landlord.page, 'Description').inputValue()).toBe('Acme corporation');
    await field(landlord.page, 'Description').fill('Acme, edited by the landlord');
    await save(landlord.page);
    await notice(landlord.page, 'Entity config saved');
    await expect.poll(() => landlord.page.url()).toMatch(/\/entity$/);
  });

  it('has no serious accessibility violations on the organisation screens, light and dark', async () => {
    const { page } = await h.pageAs(BOSS);
    const screens: [string, string, (p: Page) => Promise<unknown>][] = [
      ['/site', 'site-list', (p) => rowOf(p, 'Berlin_HQ').waitFor()],
      ['/site/new', 'site-new', (p) => field(p, 'Name').waitFor()],
      ['/site/Berlin_HQ', 'site-edit', (p) => p.getByText('Head office').first().waitFor()],
      ['/kiosk', 'kiosk-list', (p) => rowOf(p, 'Lobby').waitFor()],
      ['/kiosk/Lobby', 'kiosk-edit', (p) => field(p, 'Floor').waitFor()],
      ['/dispenser', 'group-list', (p) => rowOf(p, 'Door_A').waitFor()],
      ['/dispenser/new', 'group-new', (p) => field(p, 'Capacity').waitFor()],
      ['/dispenser/Door_A', 'group-edit', (p) => p.getByRole('link', { name: '0000aaaa0001' }).waitFor()],
      ['/entity/config', 'entity-config', (p) => field(p, 'devicePath').waitFor()],
      ['/device/new', 'device-new-groups', (p) => p.getByRole('combobox', { name: 'Groups', exact: true }).waitFor()],
    ];
    for (const [path, name, ready] of screens) await auditAt(page, path, name, ready);
  });
});
