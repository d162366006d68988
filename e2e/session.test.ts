import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

let h: Harness;
beforeAll(async () => {
  if (chromiumPath) h = await startHarness({ shared: true });
});
afterAll(async () => h?.close());

async function signIn(page: Page, name = ADMIN.name, password = ADMIN.password) {
  await page.getByLabel(/^Username/).fill(name);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(!chromiumPath)('sign-in and session in Chromium', () => {
  it('sends a signed-out visitor of a protected route to login with the full target, and back after sign-in', async () => {
    const { page, context, errors } = await h.newPage();
    await page.goto('/sdevices?page=2#top');
    await page.waitForURL(/\/auth\/login/);
    const url = new URL(page.url());
    expect(url.searchParams.get('redirect')).toBe('/sdevices?page=2#top');
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/sdevices');
    expect(new URL(page.url()).search).toBe('?page=2');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the validation messages and the wrong-password notice', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('This field is required').count()).toBe(2);
    await page.getByLabel(/^Username/).fill(ADMIN.name);
    await page.getByLabel(/^Password/).fill('12345');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The password must be at least 6 characters').waitFor();
    await page.getByLabel(/^Password/).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong password').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await context.close();
  });

  it('takes a landlord to the entity list with the landlord navigation, and keeps the session across a reload', async () => {
    const { page, context, errors } = await h.newPage();
    await page.goto('/auth/login');
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/entity');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Entities', 'Accounts', 'Devices', 'Dataviews']) {
      await nav.getByRole('link', { name: label }).waitFor();
    }
    expect(await nav.getByRole('link', { name: 'Sites' }).count()).toBe(0);
    await page.reload();
    await nav.getByRole('link', { name: 'Entities' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/entity');
    // A signed-in user who opens the login page is sent on.
    await page.goto('/auth/login');
    await page.waitForURL((u) => u.pathname !== '/auth/login');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('remembers Dark Mode across a reload', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/auth/login');
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/entity');
    const scheme = () => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    expect(await scheme()).toBe('light');
    await page.getByRole('button', { name: /admin/ }).click();
    await page.getByRole('menuitem', { name: /Dark Mode/ }).click();
    await expect.poll(scheme).toBe('dark');
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await scheme()).toBe('dark');
    await context.close();
  });

  it('logs out: back to the login screen, the stored session gone, protected routes closed', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/auth/login');
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/entity');
    const refreshToken = await page.evaluate(() => localStorage.getItem('fleet.refreshToken'));
    expect(refreshToken).toBeTruthy();
    await page.getByRole('button', { name: /admin/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(/\/auth\/login/);
    const stored = await page.evaluate(() =>
      ['fleet.accessToken', 'fleet.refreshToken', 'fleet.username', 'fleet.entity'].map((k) => localStorage.getItem(k)),
    );
    expect(stored).toEqual([null, null, null, null]);
    // The server revoked the session too (the console sends the revoke without waiting for it):
    // the old refresh token stops working.
    await expect
      .poll(async () => (await h.server.request('POST', '/api/v1/refresh', { token: refreshToken! })).status)
      .toBe(401);
    await page.goto('/entity');
    await page.waitForURL(/\/auth\/login\?redirect=%2Fentity/);
    await context.close();
  });
});
