import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedDevice } from '../apps/simulator/src/device.ts';
import { audit, SHOTS_DIR } from './helpers/axe.ts';
import { chromiumPath } from './helpers/browser.ts';
import { api, choose, WATCHER, startWorld, world } from './helpers/devices-world.ts';

/**
 * Issue 29 in Chromium: a simulated device drains below its rule's level, the header's count
 * rises, the operator acknowledges the alert, and it clears when the device is docked.
 */
let sim: SimulatedDevice | undefined;
const NAME = 'a1e700000001';

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'alerts', hex: '0a1e' } });
  // The rule fires at 20 % at once (no start or clear delay): the test waits on the device, not a clock.
  const rules = (await api('GET', `tenant/${world.acme}/alert-rules`)).body.data as Array<{ id: string; kind: string }>;
  const battery = rules.find((r) => r.kind === 'battery_low')!;
  await api('PUT', `tenant/${world.acme}/alert-rules/${battery.id}`, {
    operator: { $set: { threshold: 20, start_delay_s: 0, clear_delay_s: 0 } },
  });
  const made = await api('POST', `tenant/${world.acme}/device`, { document: { name: NAME, description: 'drains' } });
  // Ten simulated minutes a second: a visitor's unit loses 2 % a second, a docked one gains 7 %.
  sim = new SimulatedDevice({
    id: NAME,
    entity: world.acme,
    secret: made.body.data.mqtt.password,
    url: world.h.server.mqttUrl,
    timeScale: 600,
    reportEveryS: 300,
    sleeps: false,
    status: { state: 'WAITING', battery: 30, fwVersion: '1.5.2' },
  });
  sim.start();
  await sim.whenOnline();
});
afterAll(async () => {
  await sim?.stop();
  await world.h?.close();
});

describe.skipIf(!chromiumPath)('alerts in Chromium', () => {
  it('raises the count as the battery drains, acknowledges, and clears when docked; light and dark', async () => {
    const { page, errors } = await world.h.newPage({ as: WATCHER });
    await page.goto('/alerts');
    await page.getByRole('button', { name: 'Alerts: 0 active' }).waitFor();
    sim!.model.allocate(); // a visitor takes it: it drains
    await page.getByRole('button', { name: 'Alerts: 1 active' }).waitFor({ timeout: 20_000 });
    const row = page.getByRole('row').filter({ hasText: NAME });
    await row.getByText('Battery low').first().waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'alerts-raised.png'), fullPage: true });
    await page.getByRole('button', { name: 'Alerts: 1 active' }).click();
    await page.getByRole('link', { name: `${NAME}: Battery low (active)` }).waitFor();
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByRole('button', { name: 'Alerts: 0 active' }).waitFor();
    await row.getByText(`by ${WATCHER.name}`).waitFor();
    await audit(page, 'alerts', (p) => p.getByRole('row').filter({ hasText: NAME }).waitFor());
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await page.getByRole('row').filter({ hasText: NAME }).waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'alerts-dark.png'), fullPage: true });

    // Docked: it charges, and the alert clears by itself.
    sim!.model.giveBack();
    sim!.model.status.state = 'charging';
    await choose(page, 'Status', 'Cleared');
    await page.getByRole('row').filter({ hasText: NAME }).getByText('condition ended').waitFor({ timeout: 20_000 });
    // And on the device's own screen.
    await page.goto(`/device/${NAME}`);
    // The first: a slow run can see the battery dip and recover again, a second alert in the history.
    await page.locator('#alerts').getByText('Cleared').first().waitFor();
    expect(errors).toEqual([]);
  });
});
