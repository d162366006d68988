import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS_DIR } from './helpers/axe.ts';
import { chromiumPath } from './helpers/browser.ts';
import { api, BOSS, startWorld, world } from './helpers/devices-world.ts';

/** Issue 29 in Chromium: an admin adds a webhook (secret shown once), sends a test, reads the log. */
const received: string[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push(body);
    res.writeHead(req.url === '/broken' ? 500 : 204).end();
  });
});

beforeAll(async () => {
  if (!chromiumPath) return;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await startWorld({ shared: { prefix: 'webhooks', hex: '0eb0' } });
});
afterAll(async () => {
  await world.h?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe.skipIf(!chromiumPath)('webhooks in Chromium', () => {
  it('creates a webhook, shows its secret once, sends a test and shows it delivered; light and dark', async () => {
    const { page, errors } = await world.h.newPage({ as: BOSS });
    await page.goto('/alerts');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).click();
    const { port } = receiver.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/fleet`;
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Description').fill('Ops relay');
    await page.getByRole('checkbox', { name: 'device.offline' }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = page.locator('[data-webhook-secret]');
    await expect.poll(async () => (await secret.textContent()) ?? '').toMatch(/^whsec_[0-9a-f]{64}$/);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'webhooks-secret.png') });
    await page.keyboard.press('Escape');

    const row = page.getByRole('row').filter({ hasText: url });
    await row.getByText('alert.raised, device.offline').waitFor();
    await row.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('webhook.test').waitFor();
    await page.getByText(/#1 .* · 204 · \d+ ms/).waitFor({ timeout: 15_000 });
    expect(JSON.parse(received.at(-1)!)).toMatchObject({ type: 'webhook.test', entity: world.acme });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'webhooks-log.png') });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    // A receiver that always fails: 50 failed attempts in a row turn its webhook off, with a notice.
    const broken = `http://127.0.0.1:${port}/broken`;
    const made = await api('POST', `tenant/${world.acme}/webhooks`, {
      document: { url: broken, events: ['device.created'] },
    });
    for (let i = 0; i < 50; i++) await api('POST', `tenant/${world.acme}/webhooks/${made.body.data.id}/test`);
    await expect
      .poll(
        async () =>
          (await api('GET', `tenant/${world.acme}/webhooks`)).body.data.find((w: any) => w.url === broken).enabled,
        {
          timeout: 30_000,
        },
      )
      .toBe(false);
    await page.reload();
    await page.getByText(`${broken} was turned off`, { exact: false }).waitFor();
    await page.getByRole('row').filter({ hasText: broken }).getByText('Turned off').waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'webhooks.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await page.getByRole('row').filter({ hasText: url }).waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'webhooks-dark.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});
