import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topics } from '@fleet/shared/protocol';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Issue 25 item 3: a CSV import gives the new devices' MQTT credentials once, as a download, and
 * an imported device connects with them; the entity-wide commands and the delete of every device
 * say what they do (item 6). Screens are written to SHOTS, light and dark.
 */
let h: Harness;
let root = '';
const SHOTS = path.join(os.tmpdir(), 'fleet-shots');
const ENTITY = 'umbrella';
const ADMIN_OF = { name: 'umbra', password: 'password-1' };
const api = (method: string, p: string, body?: unknown) =>
  h.server.request(method, `/api/v1/${p}`, { token: root, body });

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness({ shared: true });
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await api('POST', 'tenant', { document: { name: { name: ENTITY, description: 'umbrella corp' } } });
  await api('POST', 'account', {
    document: { ...ADMIN_OF, email: 'umbra@test.example', subtype: 'admin', entity: ENTITY, access: ['all'] },
  });
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => h?.close());

/** Both schemes of the screen as it stands: switched in place (Mantine hears a `storage` event), left in light. */
async function shoot(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((s) => {
      localStorage.setItem('fleet.theme', s);
      window.dispatchEvent(new StorageEvent('storage', { key: 'fleet.theme', newValue: s, storageArea: localStorage }));
    }, scheme);
    await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
  }
  await page.evaluate(() => {
    localStorage.setItem('fleet.theme', 'light');
    window.dispatchEvent(
      new StorageEvent('storage', { key: 'fleet.theme', newValue: 'light', storageArea: localStorage }),
    );
  });
}

/** Parses the credentials CSV the console offers (three plain columns under a header). */
function readCredentials(text: string) {
  const [header, ...lines] = text.trim().split('\r\n');
  expect(header).toBe('Device ID,MQTT username,MQTT password');
  return lines.map((line) => {
    const [id, username, password] = line.split(',');
    return { id: id!, username: username!, password: password! };
  });
}

describe.skipIf(!chromiumPath)('bulk import credentials', () => {
  it('imports a CSV, downloads the credentials once, and an imported device connects with them', async () => {
    const { page, context, errors } = await h.newPage({ as: ADMIN_OF });
    await page.goto('/devices/new-multiple');
    await page.getByLabel(/^Manufacture type/).fill('Dispenser v2');
    const ids = ['bbbb00000001', 'bbbb00000002', 'bbbb00000003'];
    await page.locator('input[type="file"]').setInputFiles({
      name: 'devices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`Device ID,Description\n${ids.map((id) => `${id},Imported`).join('\n')}\n`),
    });
    await page.getByText('Preview: 3 devices in the file').waitFor();
    await page.getByRole('button', { name: 'Add Devices' }).click();
    await page.getByText('3 devices added successfully.', { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: '3 devices added' }).waitFor();
    await page.getByText('Shown once').waitFor();
    await shoot(page, 'bulk-import-credentials');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download credentials (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^device-credentials-.*\.csv$/);
    const credentials = readCredentials(fs.readFileSync(await file.path(), 'utf8'));
    expect(credentials.map((c) => c.id)).toEqual(ids);
    // Nothing on the screen shows a password.
    for (const { password } of credentials) expect(await page.getByText(password).count()).toBe(0);

    // The second device connects with what the file says, as firmware does.
    const { username, password } = credentials[1]!;
    const client = await mqtt.connectAsync(h.server.mqttUrl, {
      protocolVersion: 4,
      clientId: username,
      username,
      password,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    expect(client.connected).toBe(true);
    await client.subscribeAsync(topics.deviceCommands(ENTITY, username), { qos: 1 });
    await client.publishAsync(topics.state(ENTITY, username), JSON.stringify({ state: 'WAITING', battery: 66 }));
    await expect.poll(async () => (await api('GET', `tenant/${ENTITY}/device/${username}`)).body.data.battery).toBe(66);
    await client.endAsync();

    await page.getByRole('button', { name: 'Go to the device list' }).click();
    await page.waitForURL((u) => u.pathname === '/device');
    await page.getByRole('link', { name: ids[2]! }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows Vibrate all answered at once with its progress, and Delete all asks for the entity', async () => {
    const { page, context, errors } = await h.newPage({ as: ADMIN_OF });
    await page.goto('/device');
    await page.getByRole('link', { name: 'bbbb00000003' }).waitFor();
    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Vibrate all devices' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Vibrate all' }).click();
    // No device is connected: all three are held, and the panel says so at once.
    const progress = page.getByRole('status', { name: 'Vibrate all devices: progress' });
    await progress.getByText('Sent to 3 devices · 0 answered · 3 not connected: held until they connect').waitFor();
    await shoot(page, 'vibrate-all-progress');

    await page.getByRole('button', { name: 'Multi-Device Action' }).click();
    await page.getByRole('menuitem', { name: 'Delete all devices' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.getByText(`All 3 devices of ${ENTITY} will be deleted`, { exact: false }).waitFor();
    const remove = dialog.getByRole('button', { name: 'Yes, delete it!' });
    expect(await remove.isDisabled()).toBe(true);
    await shoot(page, 'delete-all-confirm');
    await dialog.getByLabel(`Type ${ENTITY} to confirm`).fill(ENTITY);
    await remove.click();
    await page.getByText('All devices deleted', { exact: true }).first().waitFor();
    expect((await api('GET', `tenant/${ENTITY}/device`)).body.total).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
