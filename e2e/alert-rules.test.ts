import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOTS_DIR } from './helpers/axe.ts';
import { ADMIN, chromiumPath } from './helpers/browser.ts';
import { BOSS, choose, field, startWorld, unexpected, world } from './helpers/devices-world.ts';

/**
 * Issue 29 in Chromium: an entity admin creates an alert rule in the rules editor (a field error
 * from the API shown at the field first) and sees it listed; the superadmin's every-entity screen.
 */
beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld();
});
afterAll(async () => world.h?.close());

describe.skipIf(!chromiumPath)('alert rules in Chromium', () => {
  it('creates a rule in the editor and lists it; light and dark', async () => {
    const { page, errors } = await world.h.newPage({ as: BOSS });
    await page.goto('/alerts');
    await page.getByRole('link', { name: 'Rules' }).click();
    await page.getByRole('row').filter({ hasText: 'Device unresponsive' }).waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    await field(page, 'Name').fill('Docking forgotten');
    await choose(page, 'Kind', 'Charging stopped');
    await choose(page, 'Scope', 'A group');
    await field(page, 'Site, group or view name').fill('no_such_group');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('dialog').getByText('No group named "no_such_group"').waitFor();
    await field(page, 'Site, group or view name').fill('hall_a');
    await page.getByRole('button', { name: 'Create rule' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Docking forgotten' });
    await row.getByText('Charging stopped').waitFor();
    await row.getByText('group hall_a').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'alert-rules.png'), fullPage: true });
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'Docking forgotten' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'alert-rules-dark.png'), fullPage: true });
    // The one 400 is the provoked field error.
    expect(unexpected(errors).filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it("shows the superadmin every entity's alerts with an entity filter", async () => {
    const { page, errors } = await world.h.newPage({ as: ADMIN });
    await page.goto('/salerts');
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await page.getByRole('combobox', { name: 'Entity', exact: true }).waitFor();
    await page.getByText('No alerts').first().waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'alerts-superadmin.png'), fullPage: true });
    expect(unexpected(errors)).toEqual([]);
  });
});
