import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, auditAt } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

let h: Harness;
let root = '';
const api = (method: string, path: string, body?: unknown) =>
  h.server.request(method, `/api/v1/${path}`, { token: root, body });
/** boss once the landlord has changed the password (the second test). */
const BOSS = { name: 'boss', password: 'password-9' };
const createAccount = (document: Record<string, unknown>) =>
  api('POST', 'account', { document: { password: 'password-1', entity: 'acme', ...document } });

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await api('POST', 'tenant', { document: { name: { name: 'acme', description: 'Acme Corp' } } });
  await api('POST', 'tenant', { document: { name: { name: 'globex', description: 'Globex Inc' } } });
});
afterAll(async () => h?.close());

const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
/**
 * The input labelled `label` (letters, spaces, '-' and '_'): a required one's label ends in
 * Mantine's asterisk, and a Select's option list carries its label too.
 */
const field = (page: Page, label: string) =>
  page.locator('input, textarea').and(page.getByLabel(new RegExp(`^${label}\\s*\\*?$`)));

async function fillAccount(page: Page, values: { name: string; email: string; password: string }) {
  await field(page, 'Username').fill(values.name);
  await field(page, 'E-mail').fill(values.email);
  await field(page, 'Password').fill(values.password);
  await field(page, 'Password Confirmation').fill(values.password);
}

async function chooseType(page: Page, label: string) {
  await field(page, 'Account Type').click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe.skipIf(!chromiumPath)('accounts in Chromium', () => {
  it('lets the landlord create an entity admin with All Access, after the validation messages', async () => {
    const { page } = await h.pageAs(ADMIN);
    await page.goto('/saccounts');
    await page.getByRole('link', { name: 'Add Account' }).click();
    await page.waitForURL((u) => u.pathname === '/saccounts/new');
    expect(await field(page, 'Account Type').inputValue()).toBe('Admin');
    await expect.poll(() => field(page, 'Entity').inputValue()).toBe('acme');

    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText('This field is required').count()).toBe(4);
    await field(page, 'Username').fill('bad name');
    await page.getByText('The field may contain alpha-numeric characters as well as underscores').waitFor();
    await field(page, 'E-mail').fill('nope');
    await page.getByText('The e-mail address is not valid').waitFor();
    await field(page, 'Password').fill('12345');
    await page.getByText('The password must be at least 6 characters').waitFor();
    await field(page, 'Password Confirmation').fill('123456');
    await page.getByText('The password confirmation does not match').waitFor();
    await fillAccount(page, { name: 'boss', email: 'boss@acme.test', password: 'password-1' });

    // All Access clears the individual rights; an individual right clears All Access.
    await field(page, 'Dataview_read').check();
    await field(page, 'All Access').check();
    expect(await field(page, 'Dataview_read').isChecked()).toBe(false);
    await field(page, 'Site_read').check();
    expect(await field(page, 'All Access').isChecked()).toBe(false);
    await field(page, 'All Access').check();

    // A superadmin has no entity and no access section.
    await chooseType(page, 'Superadmin');
    await field(page, 'Entity').waitFor({ state: 'detached' });
    expect(await page.getByText('Access Permissions').count()).toBe(0);
    await chooseType(page, 'Admin');

    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/saccounts');
    await notice(page, 'Account created');
    const row = page.getByRole('row', { name: /boss/ });
    for (const text of ['acme', 'admin', 'boss@acme.test']) await row.getByText(text, { exact: true }).waitFor();
    expect((await api('GET', 'account/boss')).body.data).toMatchObject({ entity: 'acme', access: ['all'] });
  });

  it('lets the landlord edit an account, change its password and delete another, never its own', async () => {
    const { page } = await h.pageAs(ADMIN);
    await page.goto('/saccounts');
    expect(await page.getByRole('button', { name: 'Delete account admin' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit account boss' }).click();
    await page.waitForURL((u) => u.pathname === '/saccounts/boss');
    expect(await field(page, 'Entity').inputValue()).toBe('acme');
    expect(await field(page, 'Entity').getAttribute('readonly')).not.toBeNull();
    await field(page, 'E-mail').fill('the.boss@acme.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/saccounts');
    await notice(page, 'Account saved');
    await page.getByRole('row', { name: /boss/ }).getByText('the.boss@acme.test').waitFor();

    await page.getByRole('button', { name: 'Edit account boss' }).click();
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => dialog.getByText('This field is required').count()).toBe(2);
    await field(page, 'Password').fill('password-9');
    await field(page, 'Password Confirmation').fill('password-8');
    await dialog.getByText('The password confirmation does not match').waitFor();
    await field(page, 'Password Confirmation').fill('password-9');
    await dialog.getByRole('button', { name: 'Change password' }).click();
    await notice(page, 'Account saved');
    await dialog.waitFor({ state: 'hidden' });
    const login = await h.server.request('POST', '/api/v1/login', { body: { name: 'boss', password: 'password-9' } });
    expect(login.status).toBe(200);

    await createAccount({ name: 'temp_user', email: 't@acme.test', subtype: 'operator' });
    await page.goto('/saccounts');
    await page.getByRole('button', { name: 'Delete account temp_user' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await notice(page, 'Account deleted');
    await page.getByRole('row', { name: /temp_user/ }).waitFor({ state: 'detached' });
  });

  it('sends an unknown account name back to the list', async () => {
    const { page } = await h.pageAs(ADMIN);
    await page.goto('/saccounts/nobody');
    await page.waitForURL((u) => u.pathname === '/saccounts');
  });

  it('changes the own e-mail in the settings and generates, copies, lists and revokes a token', async () => {
    // The file's first test as boss: signed in (with the new password), the console opens the
    // entity admin's account list.
    const { page, context, errors } = await h.pageAs(BOSS);
    await page.waitForURL((u) => u.pathname === '/account');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.server.url });
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL((u) => u.pathname === '/settings');
    expect(await field(page, 'Username').inputValue()).toBe('boss');
    expect(await field(page, 'Type').inputValue()).toBe('admin');
    await field(page, 'E-mail').fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The e-mail address is not valid').waitFor();
    await field(page, 'E-mail').fill('chief@acme.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice(page, 'Account saved');
    expect((await api('GET', 'account/boss')).body.data.email).toBe('chief@acme.test');

    await page.getByText('No tokens yet').waitFor();
    await field(page, 'Description').fill('CI pipeline');
    await page.getByRole('button', { name: 'Generate' }).click();
    await notice(page, 'Token generated successfully');
    const value = await field(page, 'Token value').inputValue();
    expect(value).toMatch(/^pt_/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await notice(page, 'Token copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    const row = page.getByRole('row', { name: /CI pipeline/ });
    await row.waitFor();
    // The listed token works for the API, then stops the moment it is revoked.
    const check = () => h.server.request('GET', '/api/v1/tenant/acme/account', { token: value });
    expect((await check()).status).toBe(200);
    await row.getByRole('button', { name: /Revoke token/ }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await notice(page, 'Token revoked');
    await page.getByText('No tokens yet').waitFor();
    expect((await check()).status).toBe(401);
    expect(errors).toEqual([]);
  });

  it('lets an entity admin create a developer, edit and delete it, but not touch admin rows', async () => {
    await createAccount({ name: 'boss2', email: 'b2@acme.test', subtype: 'admin', access: ['all'] });
    // The file's last test as boss: it signs out, which ends the page's session.
    const { page, errors } = await h.pageAs(BOSS);
    await page.goto('/account');
    await page.getByRole('row', { name: /boss2/ }).waitFor();
    for (const name of ['boss', 'boss2']) {
      expect(await page.getByRole('button', { name: `Edit account ${name}` }).count()).toBe(0);
      expect(await page.getByRole('button', { name: `Delete account ${name}` }).count()).toBe(0);
    }
    expect(await page.getByRole('row', { name: /temp_user|globex/ }).count()).toBe(0);

    await page.getByRole('link', { name: 'Add Account' }).click();
    await page.waitForURL((u) => u.pathname === '/account/new');
    expect(await field(page, 'Account Type').inputValue()).toBe('Developer');
    await field(page, 'Account Type').click();
    await page.getByRole('option', { name: 'Infra' }).waitFor();
    expect(await page.getByRole('option', { name: 'Admin' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await fillAccount(page, { name: 'dev_one', email: 'dev@acme.test', password: 'password-1' });
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/account');
    await notice(page, 'Account created');
    await page
      .getByRole('row', { name: /dev_one/ })
      .getByText('developer', { exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Edit account dev_one' }).click();
    await page.waitForURL((u) => u.pathname === '/account/dev_one');
    await chooseType(page, 'Operator');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice(page, 'Account saved');
    await page
      .getByRole('row', { name: /dev_one/ })
      .getByText('operator', { exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Delete account dev_one' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await notice(page, 'Account deleted');
    await page.getByRole('row', { name: /dev_one/ }).waitFor({ state: 'detached' });
    // Signing out from an entity screen leaves cleanly (its calls need the entity that just went).
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/auth/login');
    expect(errors).toEqual([]);
  });

  it("lets the landlord generate an entity account's token and a superadmin's own", async () => {
    const { page } = await h.pageAs(ADMIN);
    await page.goto('/saccounts/boss');
    await field(page, 'Description').fill('landlord made');
    await page.getByRole('button', { name: 'Generate' }).click();
    await notice(page, 'Token generated successfully');
    await page.getByRole('row', { name: /landlord made/ }).waitFor();
    await page.goto('/settings');
    await field(page, 'Description').fill('my own');
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('row', { name: /my own/ }).waitFor();
    expect(await page.getByRole('row', { name: /landlord made/ }).count()).toBe(0);
  });

  // Two sweeps, each seeding what it looks at, so either runs alone or in any order (and each stays
  // well inside the test timeout: eleven screens in light and dark were one test before).
  const seedSweepAccounts = async () => {
    await createAccount({ name: 'ops_dev', email: 'ops@acme.test', subtype: 'developer' });
    await createAccount({ name: 'sweep_admin', email: 'sweep@acme.test', subtype: 'admin', access: ['all'] });
  };

  it("has no serious accessibility violations on the landlord's account screens, light and dark", async () => {
    await seedSweepAccounts();
    // The file's last test as the landlord: it signs out, which ends the page's session.
    const { page, errors } = await h.pageAs(ADMIN);
    await auditAt(page, '/saccounts', 'saccounts-list', (p) => p.getByRole('row', { name: /ops_dev/ }).waitFor());
    await auditAt(page, '/saccounts/new', 'saccounts-new', async (p) => {
      await p.getByRole('button', { name: 'Create account' }).click();
      await p.getByText('This field is required').first().waitFor();
    });
    await audit(page, 'saccounts-new-entity-open', async (p) => {
      await field(p, 'Entity').click();
      await p.getByRole('option', { name: /globex/ }).waitFor();
    });
    await auditAt(page, '/saccounts/ops_dev', 'saccounts-edit', (p) => p.getByText('No tokens yet').waitFor());
    await audit(page, 'change-password', async (p) => {
      await p.getByRole('button', { name: 'Change Password' }).click();
      await p.getByRole('dialog', { name: 'Change Password' }).waitFor();
    });
    await auditAt(page, '/settings', 'settings-landlord', (p) => p.locator('table[aria-busy="false"]').waitFor());
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(errors).toEqual([]);
  });

  it("has no serious accessibility violations on an entity admin's account screens, light and dark", async () => {
    await seedSweepAccounts();
    const { page, errors } = await h.pageAs({ name: 'sweep_admin', password: 'password-1' });
    await auditAt(page, '/account', 'account-list', (p) => p.getByRole('row', { name: /ops_dev/ }).waitFor());
    await auditAt(page, '/account/new', 'account-new', (p) =>
      p.getByRole('button', { name: 'Create account' }).waitFor(),
    );
    await auditAt(page, '/account/ops_dev', 'account-edit', (p) => p.getByText('No tokens yet').waitFor());
    await auditAt(page, '/settings', 'settings', async (p) => {
      await field(p, 'Description').fill('Deploy bot');
      await p.getByRole('button', { name: 'Generate' }).click();
      await field(p, 'Token value').waitFor();
      await p
        .getByRole('row', { name: /Deploy bot/ })
        .first()
        .waitFor();
    });
    expect(errors).toEqual([]);
  });
});
