import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS_DIR } from './helpers/axe.ts';
import { chromiumPath, startHarness, type Harness } from './helpers/browser.ts';
import { DEVICE, ENTITY_ROUTES, forbidden, seedRoles, tour, type Account } from './helpers/role-tour.ts';

/**
 * Issue 25: the entity's operator (no access values) visits every route of the spec and uses what
 * it is shown; nothing answers 403 or loads for over 5 s. Where it may not go, the console says so.
 */
let h: Harness;
let operator: Account;

beforeAll(async () => {
  if (!chromiumPath) return;
  // The worker's server, and the demo fleet seeded once on it for every role file the worker runs.
  h = await startHarness({ shared: true });
  operator = (await h.once('roles', () => seedRoles(h))).operator;
});
afterAll(async () => h?.close());

describe.skipIf(!chromiumPath)('the operator role in Chromium', () => {
  it(
    'is shown no control that the server refuses, and no screen waits more than 5 s',
    { timeout: 300_000 },
    async () => {
      const { page } = await h.newPage({ as: operator });
      const report = await tour(page, ENTITY_ROUTES(operator.name));
      expect(report.visited.length).toBeGreaterThan(ENTITY_ROUTES(operator.name).length);
      expect(forbidden(report)).toEqual([]);
      expect(report.deadEnds).toEqual([]);
      expect(report.slow).toEqual([]);
    },
  );

  it('is offered neither sites, groups nor Allocate, and is told so in words on a direct link', async () => {
    const { page } = await h.newPage({ as: operator });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Accounts',
      'Dataviews',
      'Devices',
      'Fleet health',
      'Alerts',
      'Rollouts',
    ]);
    await page.goto(`/device/${DEVICE}`);
    await page.getByRole('heading', { name: 'Device', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Allocate' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await page.goto('/site');
    await page.getByText('You do not have access to sites and kiosks').waitFor();
    await page.getByText(/Ask an administrator for Site_read/).waitFor();
    expect(await page.getByText('could not be loaded').count()).toBe(0);
    await page.goto('/dataview/new');
    await page.getByText('Read-only access').waitFor();
    await page.goto(`/device/${DEVICE}/allocate`);
    await page.getByText('You do not have access to allocating and returning devices').waitFor();
  });

  it(
    'looks right in light and dark: device list, device screen, sites and allocate',
    { timeout: 120_000 },
    async () => {
      const { page } = await h.newPage({ as: operator });
      await page.goto('/');
      for (const scheme of ['light', 'dark'] as const) {
        // The remembered Dark Mode choice (localStorage 'fleet.theme', read on each load).
        await page.evaluate((value) => localStorage.setItem('fleet.theme', value), scheme);
        const shots: [string, string, string][] = [
          ['/device', 'devices', DEVICE],
          [`/device/${DEVICE}`, 'device', 'Device status'],
          ['/site', 'sites', 'You do not have access'],
          [`/device/${DEVICE}/allocate`, 'allocate', 'You do not have access'],
        ];
        for (const [route, name, text] of shots) {
          await page.goto(route);
          await page.getByText(text).first().waitFor();
          expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
          await page.screenshot({ path: path.join(SHOTS_DIR, `operator-${name}-${scheme}.png`), fullPage: true });
        }
      }
    },
  );
});
