import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, auditAt } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

let h: Harness;
let root = '';
beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
});
afterAll(async () => h?.close());

const createEntity = (name: string, description = '') =>
  h.server.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description } } } });

describe.skipIf(!chromiumPath)('entities in Chromium', () => {
  it('creates an entity from the form, with the validation messages first', async () => {
    const { page, context } = await h.newPage();
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/entity');
    await page.getByText('No entities yet').waitFor();
    await page.getByRole('link', { name: 'Add Entity' }).click();
    await page.waitForURL((u) => u.pathname === '/entity/new');

    await page.getByRole('button', { name: 'Create entity' }).click();
    await page.getByText('This field is required').waitFor();
    await page.getByLabel(/^Name/).fill('acme corp');
    await page.getByText('The field may contain alpha-numeric characters as well as underscores').waitFor();
    await page.getByLabel(/^Name/).fill('acme');
    await page.getByLabel('Description').fill('Acme Corporation');
    await page.getByRole('button', { name: 'Create entity' }).click();

    await page.waitForURL((u) => u.pathname === '/entity');
    await page.getByText('Entity created').waitFor(); // the server's status text
    const row = page.getByRole('row', { name: /acme/ });
    await row.getByText('Acme Corporation').waitFor();
    await context.close();
  });

  it('keeps the form usable and shows a taken name under the Name field', async () => {
    await createEntity('taken');
    const { page } = await h.pageAs(ADMIN);
    await page.goto('/entity/new');
    await page.getByLabel(/^Name/).fill('taken');
    await page.getByRole('button', { name: 'Create entity' }).click();
    const name = page.getByLabel(/^Name/);
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/entity/new');
    expect(await page.getByRole('button', { name: 'Create entity' }).isEnabled()).toBe(true);
    // Cancel goes back to where the user came from.
    await page.goto('/entity');
    await page.getByRole('link', { name: 'Add Entity' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === '/entity');
  });

  it('deletes an entity only after the confirmation', async () => {
    await createEntity('doomed', 'To be deleted');
    const { page } = await h.pageAs(ADMIN);
    await page.goto('/entity');
    const remove = page.getByRole('button', { name: 'Delete entity doomed' });
    await remove.click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.getByText("You won't be able to revert this!").waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await remove.count()).toBe(1);

    await remove.click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await remove.waitFor({ state: 'detached' });
    const list = await h.server.request('GET', '/api/v1/tenant?limit=0', { token: root });
    expect(list.body.data.map((e: { name: string }) => e.name)).not.toContain('doomed');
  });

  it('sends an entity user who opens a landlord screen to their own counterpart', async () => {
    await createEntity('solo');
    await h.server.request('POST', '/api/v1/account', {
      token: root,
      body: {
        document: {
          name: 'solo_dev',
          email: 's@solo.test',
          password: 'password-1',
          subtype: 'developer',
          entity: 'solo',
        },
      },
    });
    const { page, context } = await h.newPage({ as: { name: 'solo_dev', password: 'password-1' } });
    await page.goto('/entity');
    await page.waitForURL((u) => u.pathname === '/account');
    await context.close();
  });

  it('has no serious accessibility violations on login, shell, entity list and entity new, light and dark', async () => {
    await createEntity('acme', 'Acme Corporation'); // a 409 when the first test made it already
    const { page, context, errors } = await h.newPage();
    await page.goto('/auth/login');
    await audit(page, 'login', (p) => p.getByRole('button', { name: 'Sign in' }).waitFor());
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/entity');
    await audit(page, 'entity-list', (p) => p.getByRole('row', { name: /acme/ }).waitFor());
    await audit(page, 'user-menu', async (p) => {
      await p.getByRole('button', { name: /User menu/ }).click();
      await p.getByRole('menuitem', { name: 'Logout' }).waitFor();
    });
    await page.goto('/entity/new');
    await audit(page, 'entity-new', async (p) => {
      await p.getByRole('button', { name: 'Create entity' }).click();
      await p.getByText('This field is required').waitFor();
    });
    await page.goto('/entity');
    await audit(page, 'entity-delete-confirm', async (p) => {
      await p.getByRole('button', { name: 'Delete entity acme' }).click();
      await p.getByRole('dialog', { name: 'Are you sure?' }).waitFor();
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so when there are no entities', async () => {
    // A fresh list is empty only before any entity exists, so look at it through a stubbed answer.
    const { page } = await h.pageAs(ADMIN);
    const entityList = (url: URL) => url.pathname === '/api/v1/tenant';
    await page.route(entityList, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data: [], total: 0 }) }),
    );
    await auditAt(page, '/entity', 'entity-list-empty', (p) => p.getByText('No entities yet').waitFor());
    // The page is the file's for the landlord: the next test reads the real list on it.
    await page.unroute(entityList);
  });

  it('says so when the entities cannot be loaded, and offers to try again', async () => {
    await createEntity('acme', 'Acme Corporation'); // a 409 when an earlier test made it already
    const { page } = await h.pageAs(ADMIN);
    const entityList = (url: URL) => url.pathname === '/api/v1/tenant';
    await page.route(entityList, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ errorInfo: { code: 503, userMessage: 'Service unavailable', developerMessage: '' } }),
      }),
    );
    await auditAt(page, '/entity', 'entity-list-error', async (p) => {
      await p.getByText('The entities could not be loaded.').waitFor();
      await p.getByText('Error loading data').first().waitFor();
    });
    await page.unroute(entityList);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('row', { name: /acme/ }).waitFor();
  });
});
