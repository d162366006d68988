import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * The File and Firmware dialogs of the entity config (fleet §2, §5, §8), as an entity admin
 * uses them: uploads with the spec's limits and messages, lists with sizes, deletions.
 */
let h: Harness;
const ENTITY = `files_${randomBytes(3).toString('hex')}`;
const OWNER = { name: `owner_${randomBytes(3).toString('hex')}`, password: 'password-1' };

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness({ shared: true });
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await h.server.request('POST', '/api/v1/tenant', {
    token: root,
    body: { document: { name: { name: ENTITY, description: 'files e2e' } } },
  });
  await h.server.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: { ...OWNER, email: 'o@x.test', subtype: 'admin', entity: ENTITY, access: ['all'] },
    },
  });
});
afterAll(async () => h?.close());

/** Opens a dialog of the entity config by its button, e.g. 'Firmware'. */
async function open(page: Page, button: 'File' | 'Firmware') {
  await page.getByRole('button', { name: button, exact: true }).click();
  const title = button === 'File' ? `Files — entity ${ENTITY}` : `Firmware — entity ${ENTITY}`;
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  return dialog;
}

const bytes = (n: number) => Buffer.alloc(n, 7);

describe.skipIf(!chromiumPath)('files and firmware of the entity', () => {
  it('uploads a file with a device path, lists it with its size, refuses what the spec refuses', async () => {
    const { page, errors } = await h.newPage({ as: OWNER });
    await page.goto('/entity/config');
    const dialog = await open(page, 'File');
    await dialog.getByText('No files yet').waitFor();
    const input = dialog.locator('input[type=file]');

    await input.setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: bytes(10_000_001) });
    await dialog.getByText('File is too big. Only files up to 10000000 Bytes are allowed.').waitFor();

    await input.setInputFiles({ name: 'app.json', mimeType: 'application/json', buffer: bytes(2_000) });
    await dialog.getByLabel('Device path (optional)').fill('../etc/app.json');
    await dialog.getByText('Invalid device path format').waitFor();
    await dialog.getByLabel('Device path (optional)').fill('config/app.json');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('File uploaded successfully!').waitFor();
    const row = dialog.getByRole('row').filter({ hasText: 'app.json' });
    await row.getByText('config/app.json').waitFor();
    await row.getByText('1.95 KB').waitFor();

    await audit(page, 'files-dialog', async (p) => {
      const d = await open(p, 'File');
      await d.getByRole('row').filter({ hasText: 'app.json' }).waitFor();
    });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('uploads firmware, and restores the list when a deletion is refused', async () => {
    const { page, errors } = await h.newPage({ as: OWNER });
    await page.goto('/entity/config');
    const dialog = await open(page, 'Firmware');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('Choose a file').first().waitFor();
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'fw-cc2.bin', mimeType: 'application/octet-stream', buffer: bytes(300_000) });
    await dialog.getByLabel('Version').fill('3.1.0');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Firmware 3.1.0 uploaded').waitFor();
    const row = dialog.getByRole('row').filter({ hasText: '3.1.0' });
    await row.getByText('CC2', { exact: true }).waitFor();
    await row.getByText('292.97 KB').waitFor();

    // The same version again: the server's message under the spec's title.
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'fw-cc2.bin', mimeType: 'application/octet-stream', buffer: bytes(10) });
    await dialog.getByLabel('Version').fill('3.1.0');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Firmware upload failed').waitFor();
    await page.getByText('Firmware 3.1.0 for CC2 is already uploaded here').waitFor();

    await audit(page, 'firmware-dialog', async (p) => {
      const d = await open(p, 'Firmware');
      await d.getByRole('row').filter({ hasText: '3.1.0' }).waitFor();
    });

    // A deletion the server refuses: the row leaves, then comes back with the notice. (The
    // audit left the dialog open.)
    const d = page.getByRole('dialog', { name: `Firmware — entity ${ENTITY}` });
    await page.route('**/api/v1/tenant/*/firmware/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              errorInfo: { code: 503, userMessage: 'The file store is unavailable; try again', developerMessage: 'x' },
            }),
          })
        : route.continue(),
    );
    await d.getByRole('button', { name: 'Delete firmware 3.1.0 for CC2' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.getByText('Firmware deletion failed').waitFor();
    await d.getByRole('row').filter({ hasText: '3.1.0' }).waitFor();
    await page.unroute('**/api/v1/tenant/*/firmware/*');

    await d.getByRole('button', { name: 'Delete all CC2 firmware' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await d.getByText('No firmware yet').waitFor();
    // The only console errors are the browser's own reports of the 409 and the 503 asked for.
    expect(errors.filter((e) => !/status of (409|503)/.test(e))).toEqual([]);
    await page.context().close();
  });
});
