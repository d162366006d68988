import path from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS_DIR } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Issue 25's smaller items that only a real browser shows: what a sign-in downloads, where
 * notices appear, how wide the dose time field is.
 */
const BOSS = { name: 'boss', password: 'password-1' };
/** A phone held upright. */
const PHONE = { width: 390, height: 844 };
let h: Harness;

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  const api = (path: string, body: unknown) => h.server.request('POST', `/api/v1/${path}`, { token: root, body });
  await api('tenant', { document: { name: { name: 'acme', description: 'acme corp' } } });
  await api('account', {
    document: { ...BOSS, email: 'boss@test.example', subtype: 'admin', entity: 'acme', access: ['all'] },
  });
});
afterAll(async () => h?.close());

/** Every request of `page` that failed or was cancelled, as `url (reason)`. */
function failedRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on('requestfailed', (r) => failed.push(`${new URL(r.url()).pathname} (${r.failure()?.errorText ?? '?'})`));
  return failed;
}

/** Whether two boxes share any pixel. */
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
type Box = { x: number; y: number; width: number; height: number };
/** Where `locator` is drawn once it has stopped moving (a notice slides in). */
async function box(locator: Locator): Promise<Box> {
  let last = '';
  let b: Box | null = null;
  await expect
    .poll(async () => {
      const before = last;
      b = await locator.boundingBox();
      last = JSON.stringify(b);
      return b !== null && last === before;
    })
    .toBe(true);
  return b!;
}
const notice = (page: Page) => page.locator('.mantine-Notification-root').first();

describe.skipIf(!chromiumPath)('small fixes (issue 25)', () => {
  it('a sign-in cancels no request', async () => {
    const { page, context } = await h.newPage();
    const failed = failedRequests(page);
    let requests = 0;
    const pending = new Set<Request>();
    page.on('request', (r) => {
      requests += 1;
      if (!new URL(r.url()).pathname.endsWith('/events')) pending.add(r);
    });
    page.on('requestfinished', (r) => pending.delete(r));
    page.on('requestfailed', (r) => pending.delete(r));
    await page.goto('/auth/login', { waitUntil: 'domcontentloaded' });
    await page.getByLabel(/^Username/).fill(BOSS.name);
    await page.getByLabel(/^Password/).fill(BOSS.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.waitForFunction(() => document.querySelector('main')?.hasAttribute('data-rendered'));
    // Quiet: every request of the sign-in has ended. The header's alert count is a stream that
    // stays open, so 'networkidle' may never come on a busy machine; streams are left out here.
    await expect.poll(() => [...pending].length, { timeout: 30_000 }).toBe(0);
    console.log(`sign-in: ${requests} requests, ${failed.length} failed or cancelled ${failed.join(', ')}`);
    expect(failed).toEqual([]);
    await context.close();
  });

  it('notices cover neither the entity button nor the user menu, nor on a phone a modal title', async () => {
    const { page, context } = await h.newPage();
    await signIn(page, BOSS);
    // An unknown device: the screen goes back to the list with a notice.
    await page.goto(`/device/${'f'.repeat(12)}`);
    await notice(page).waitFor();
    const header = [
      await box(page.getByRole('button', { name: 'User menu for boss' })),
      await box(page.getByRole('banner').getByRole('button', { name: /acme/ })),
    ];
    const wide = await box(notice(page));
    await page.screenshot({ path: path.join(SHOTS_DIR, 'small-fixes-notice-wide.png') });
    expect(header.some((b) => overlap(b, wide))).toBe(false);

    // On a phone, a notice that comes while a modal is open: an upload sent offline fails at once.
    await page.setViewportSize(PHONE);
    await page.goto('/entity/config');
    await page.getByRole('button', { name: 'File', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'note.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await context.setOffline(true);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await notice(page).waitFor();
    await context.setOffline(false);
    const title = await box(dialog.locator('.mantine-Modal-title'));
    const phone = await box(notice(page));
    await page.screenshot({ path: path.join(SHOTS_DIR, 'small-fixes-notice-phone.png') });
    expect(overlap(title, phone)).toBe(false);
    expect(phone.x >= 0 && phone.x + phone.width <= PHONE.width).toBe(true);
    await context.close();
  });

  it('the dose time field shows its whole value', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await h.browser.newContext({ baseURL: h.server.url, locale: 'en-US', colorScheme });
      const page = await context.newPage();
      await signIn(page, BOSS);
      await page.evaluate((s) => localStorage.setItem('fleet.theme', s), colorScheme);
      await page.goto('/beacon-demo');
      await page.getByRole('button', { name: 'Manage Beacons' }).click();
      const time = page.getByLabel('Medication 1 time');
      await time.waitFor();
      // Room for '08:00 AM' in the field's own font, beside the clock button Chromium draws.
      const { room, needed } = await time.evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const probe = document.createElement('span');
        probe.style.font = style.font;
        probe.style.position = 'absolute';
        probe.textContent = new Intl.DateTimeFormat(navigator.language, { hour: '2-digit', minute: '2-digit' }).format(
          new Date(2026, 0, 1, 8, 0),
        );
        document.body.append(probe);
        const needed = probe.getBoundingClientRect().width + 24;
        probe.remove();
        return { room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), needed };
      });
      await page
        .getByRole('dialog')
        .screenshot({ path: path.join(SHOTS_DIR, `small-fixes-beacon-form-${colorScheme}.png`) });
      expect(room, `${room} px for ${needed} px`).toBeGreaterThanOrEqual(needed);
      await context.close();
    }
  });
});
