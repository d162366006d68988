import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionBeaconWard } from '../apps/simulator/src/demo-beacons.ts';
import { DEMO_ENTITY, provisionDemoFleet, type DemoFleet } from '../apps/simulator/src/demo-fleet.ts';
import { startFleet, type Fleet } from '../apps/simulator/src/fleet.ts';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, signIn, startHarness, type Harness } from './helpers/browser.ts';

/**
 * The superadmin inside an entity (issue 25): opens the demo entity from the entity list, looks
 * at its sites, kiosks, groups, dataviews and beacons, sends a device command, follows a direct
 * link into an entity screen, and goes back to the landlord view. No call ever goes to an empty
 * tenant path or the landlord scope.
 */
let h: Harness;
let demo: DemoFleet;
let fleet: Fleet;

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  const api = { baseUrl: h.server.url, admin: ADMIN };
  demo = await provisionDemoFleet(api, 6);
  await provisionBeaconWard(api);
  // Awake, so the command the superadmin sends meets a listening device.
  fleet = await startFleet({ devices: demo.simulated, url: h.server.mqttUrl, sleeps: false, rampMs: 300 });
});
afterAll(async () => {
  await fleet?.stop();
  await h?.close();
});

const banner = (page: Page) => page.getByRole('region', { name: 'Entity view' });
const nav = (page: Page, label: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
const row = (page: Page, text: string | RegExp) => page.getByRole('row', { name: text }).first();

/** Every API path the page calls, to assert none is a tenant path without a real entity. */
function tenantCalls(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/v1/tenant/')) paths.push(pathname);
  });
  return paths;
}
const badTenant = (paths: string[]) => paths.filter((p) => /^\/api\/v1\/tenant\/(\/|landlord\/)/.test(p));

describe.skipIf(!chromiumPath)('the superadmin inside an entity', () => {
  it('opens an entity, sees its sites, kiosks, groups, dataviews and beacons, and sends a command', async () => {
    const { page, errors } = await h.newPage();
    const calls = tenantCalls(page);
    await signIn(page);
    await page.getByRole('link', { name: `Open entity ${DEMO_ENTITY}` }).click();
    await banner(page).getByText(`Superadmin inside entity ${DEMO_ENTITY}`).waitFor();
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();
    await row(page, /demo_operator|operator/).waitFor();

    await nav(page, 'Sites').click();
    await row(page, /Berlin_HQ/).waitFor();
    await page.getByRole('link', { name: 'Kiosks' }).click();
    await row(page, /Berlin_Lobby/).waitFor();
    await nav(page, 'Groups').click();
    await row(page, /Lobby_Left/).waitFor();
    await nav(page, 'Dataviews').click();
    await row(page, /welcome_kiosk/).waitFor();
    await page.goto('/beacon-demo');
    await page.getByRole('status', { name: 'Connected' }).waitFor();
    await page.getByRole('button', { name: 'Manage Beacons' }).click();
    const modal = page.getByRole('dialog', { name: 'Manage Beacons' });
    await expect.poll(() => modal.getByTestId('beacon-config').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    await nav(page, 'Devices').click();
    const target = demo.simulated[0]!.name;
    const targetRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: target }) });
    await targetRow.getByRole('button', { name: `Actions for device ${target}` }).click();
    await page.getByRole('menuitem', { name: 'Vibrate' }).click();
    await page
      .getByText(/Vibrate .*sent|succeeded|Success/i)
      .first()
      .waitFor();
    const token = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
    const history = await h.server.request('GET', `/api/v1/tenant/${DEMO_ENTITY}/device/${target}/commands`, { token });
    expect(history.body.data[0]).toMatchObject({ type: 'vibrate', sent_by: ADMIN.name });

    // Inside the entity, light and dark: the banner, the entity's navigation and its devices.
    await audit(page, 'superadmin-entity-devices', (p) => banner(p).waitFor());
    await nav(page, 'Sites').click();
    await audit(page, 'superadmin-entity-sites', (p) => row(p, /Berlin_HQ/).waitFor());

    // Back to the landlord view: the banner and the entity's navigation go.
    await banner(page).getByRole('button', { name: 'Back to landlord view' }).click();
    await page.waitForURL((u) => u.pathname === '/entity');
    await nav(page, 'Entities').waitFor();
    expect(await banner(page).count()).toBe(0);
    expect(await nav(page, 'Sites').count()).toBe(0);
    expect(badTenant(calls)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('asked which entity, follows a direct link to /dataview/new into the one chosen', async () => {
    const { page, errors } = await h.newPage();
    const calls = tenantCalls(page);
    await signIn(page);
    await page.goto('/dataview/new');
    await page.getByRole('heading', { name: 'Choose an entity' }).waitFor();
    await page.getByRole('combobox', { name: 'Entity' }).click();
    await page.getByRole('option', { name: new RegExp(`^${DEMO_ENTITY}\\b`) }).click();
    await page.getByRole('button', { name: 'Open entity', exact: true }).click();
    await page.getByRole('heading', { name: 'New dataview' }).waitFor();
    await banner(page).getByText(`Superadmin inside entity ${DEMO_ENTITY}`).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dataview/new');
    // A reload stays inside; a link naming an entity that does not exist says so.
    await page.reload();
    await page.getByRole('heading', { name: 'New dataview' }).waitFor();
    await page.goto('/site?entity=nowhere');
    await page.getByText('Entity nowhere was not found.').waitFor();
    expect(badTenant(calls)).toEqual([]);
    expect(calls.filter((p) => p.includes('/tenant/nowhere/'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
