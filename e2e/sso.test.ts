import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp, type Idp } from '../apps/server/test/helpers/oidc.ts';
import { SHOTS_DIR } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Issue 31 in Chromium: a person signs in through the entity's identity provider (a real
 * oidc-provider on loopback, its development login page) and lands in the console; the login
 * page's button and the superadmin's provider section, light and dark.
 */
let h: Harness;
let idp: Idp;

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  idp = await startIdp();
  await idp.configure([
    {
      client_id: 'acme-client',
      client_secret: 'acme-secret',
      redirect_uris: [`${h.server.url}/api/v1/sso/callback`],
      post_logout_redirect_uris: [`${h.server.url}/auth/login`],
    },
  ]);
  idp.people.set('op-sub', { email: 'op@acme.test', email_verified: true });
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  const calls: Array<[string, string, unknown]> = [
    ['POST', '/api/v1/tenant', { document: { name: { name: 'acme', description: 'Acme fleet' } } }],
    [
      'POST',
      '/api/v1/account',
      {
        document: {
          name: 'acme_op',
          email: 'op@acme.test',
          password: 'password-1',
          subtype: 'operator',
          entity: 'acme',
          access: [],
        },
      },
    ],
    [
      'PUT',
      '/api/v1/tenant/acme/sso',
      { label: 'Acme ID', issuer: idp.issuer, client_id: 'acme-client', client_secret: 'acme-secret' },
    ],
  ];
  for (const [method, p, body] of calls) {
    const res = await h.server.request(method, p, { token: root, body });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${res.text}`);
  }
});
afterAll(async () => {
  await h?.close();
  await idp?.close();
});

describe.skipIf(!chromiumPath)('single sign-on in Chromium', () => {
  it("signs in through the provider's login page and lands in the console; light and dark", async () => {
    const { page } = await h.newPage();
    // The console's errors only: the provider's development page loads fonts from the internet.
    const errors: string[] = [];
    page.on(
      'console',
      (m) => m.type() === 'error' && m.location().url.startsWith(h.server.url) && errors.push(m.text()),
    );
    page.on('pageerror', (e) => page.url().startsWith(h.server.url) && errors.push(e.message));
    await page.goto('/auth/login');
    const button = page.getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    // The spec's form is unchanged beside it.
    await page.getByLabel(/^Username/).waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'sso-login.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await button.waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'sso-login-dark.png'), fullPage: true });
    await button.click();
    // The provider's own (development) login page.
    await page.waitForURL(`${idp.issuer}/**`);
    await page.locator('input[name=login]').fill('op-sub');
    await page.locator('input[name=password]').fill('anything');
    await page.locator('button[type=submit]').click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(await page.evaluate(() => localStorage.getItem('fleet.username'))).toBe('acme_op');
    // No token ever sat in the console's address.
    expect(page.url()).not.toMatch(/token|code=/);

    // Signing out of the console offers the provider's sign-out too, which comes back here.
    await page.getByRole('button', { name: 'User menu for acme_op' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    const offer = page.getByRole('link', { name: 'Sign out of your identity provider too' });
    await offer.waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'sso-sign-out-offer-dark.png'), fullPage: true });
    await offer.click();
    await page.waitForURL(`${idp.issuer}/**`);
    // The provider's own confirmation (development page).
    await page.locator('button[autofocus], button[type=submit]').first().click();
    await page.waitForURL(`${h.server.url}/auth/login**`);
    await page.getByLabel(/^Username/).waitFor();
    expect(await offer.count()).toBe(0);
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it("shows the superadmin the entity's provider without its secret; light and dark", async () => {
    const { page, errors } = await h.newPage({ as: ADMIN });
    await page.goto('/entity/acme');
    const section = page.getByRole('region', { name: 'Single sign-on' });
    await section.getByLabel('Issuer URL').waitFor();
    expect(await section.getByLabel('Issuer URL').inputValue()).toBe(idp.issuer);
    expect(await section.getByLabel('Client secret').inputValue()).toBe('');
    await section.getByText(`${h.server.url}/api/v1/sso/callback`).waitFor();
    await section.screenshot({ path: path.join(SHOTS_DIR, 'sso-settings.png') });
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await section.getByLabel('Issuer URL').waitFor();
    await section.screenshot({ path: path.join(SHOTS_DIR, 'sso-settings-dark.png') });
    expect(errors).toEqual([]);
  });
});
