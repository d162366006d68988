import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedDevice } from '../apps/simulator/src/device.ts';
import { upload } from '../apps/server/test/helpers/uploads.ts';
import { SHOTS_DIR } from './helpers/axe.ts';
import { chromiumPath } from './helpers/browser.ts';
import { BOSS, api, choose, field, id, startWorld, world } from './helpers/devices-world.ts';

/**
 * Issue 28 in Chromium: a rollout of an image bad for acme's four simulated devices is created in
 * the form, started, fails its canary and pauses by itself with the reason; the image is fixed,
 * the failed device retried, and the rollout finishes.
 */
const VERSION = '5.0.0';
const sims: SimulatedDevice[] = [];

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'rollouts', hex: '0b0d' } });
  const up = await upload(world.h.server, `/api/v1/tenant/${world.acme}/firmware`, world.root, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: world.acme, version: VERSION, device_type: 'CC1', description: '' },
    bytes: 50_000,
  });
  expect(up.status).toBe(201);
  for (let i = 0; i < 4; i++) {
    const name = id('b0d0', i);
    const made = await api('POST', `tenant/${world.acme}/device`, {
      document: { name, description: 'rollout', manufacturing_type: 'CC1' },
    });
    // Never asleep, a hundred simulated seconds a second: an update takes well under a second.
    const sim = new SimulatedDevice({
      id: name,
      entity: world.acme,
      secret: made.body.data.mqtt.password,
      url: world.h.server.mqttUrl,
      timeScale: 100,
      sleeps: false,
      badImages: [VERSION],
      status: { state: 'WAITING', fwVersion: '4.0.0' },
    });
    sims.push(sim);
    sim.start();
  }
  await Promise.all(sims.map((s) => s.whenOnline()));
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  await world.h?.close();
});

const shot = (name: string) => path.join(SHOTS_DIR, `${name}.png`);

describe.skipIf(!chromiumPath)('rollouts in Chromium', () => {
  it('pauses by itself on a bad canary, and finishes after the image is fixed and the failed device retried', async () => {
    const { page, errors } = await world.h.newPage({ as: BOSS });
    await page.goto('/rollouts');
    await page.getByText('No rollouts yet').waitFor();
    await page.getByRole('main').getByRole('link', { name: 'New rollout' }).first().click();

    await page.getByRole('heading', { name: 'New rollout' }).waitFor();
    await field(page, 'Name').fill('Bad 5.0.0');
    await choose(page, 'Firmware', `CC1 ${VERSION}`);
    // The dry run: the whole entity's four devices, a canary of one, then the other three.
    const dryRun = page.getByTestId('dry-run');
    await dryRun.getByText('4 devices in the target').waitFor();
    expect(await dryRun.textContent()).toContain('Canary (1) 1 → 100 % 3');
    await page.screenshot({ path: shot('rollouts-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create rollout' }).click();

    await page.getByRole('heading', { name: 'Bad 5.0.0' }).waitFor();
    await page.getByRole('button', { name: 'Start' }).click();
    const reason = 'Stage Canary (1): 1 of 1 devices failed (100 %), over the error threshold of 20 %';
    await page.getByText(reason).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('rollout-state').textContent()).toBe('Paused');
    await page.getByRole('row').filter({ hasText: 'Failed' }).first().waitFor();
    // Paused: no Pause or Start; Resume, Retry failed and Cancel are offered.
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Retry failed' }).waitFor();
    await page.screenshot({ path: shot('rollout-paused'), fullPage: true });
    await dark(page, 'rollout-paused-dark', () => page.getByText(reason).waitFor());

    for (const sim of sims) sim.markBadImage(VERSION, false);
    await page.getByRole('button', { name: 'Retry failed' }).click();
    await expect.poll(() => page.getByTestId('rollout-state').textContent(), { timeout: 40_000 }).toBe('Finished');
    expect(await page.getByText(reason).count()).toBe(0);
    await choose(page, 'Result', 'Succeeded');
    await expect.poll(() => page.locator('table[aria-label="Device results"] tbody tr').count()).toBe(4);
    await page.screenshot({ path: shot('rollout-finished-dark'), fullPage: true });
    await light(page, 'rollout-finished', () => page.getByTestId('rollout-state').getByText('Finished').waitFor());

    // The device results link to each device's screen.
    await page.getByRole('link', { name: id('b0d0', 0) }).click();
    await page.waitForURL(`**/device/${id('b0d0', 0)}`);
    await page.goto('/rollouts');
    await page.getByRole('row').filter({ hasText: 'Bad 5.0.0' }).getByText('Finished').waitFor();
    await page.screenshot({ path: shot('rollouts-list'), fullPage: true });
    await dark(page, 'rollouts-list-dark', () => page.getByRole('row').filter({ hasText: 'Bad 5.0.0' }).waitFor());
    expect(errors).toEqual([]);
  }, 180_000);
});

type Ready = () => Promise<unknown>;
async function scheme(page: Page, theme: string, name: string, ready: Ready) {
  await page.evaluate((t) => localStorage.setItem('fleet.theme', t), theme);
  await page.reload();
  await ready();
  await page.screenshot({ path: shot(name), fullPage: true });
}
const dark = (page: Page, name: string, ready: Ready) => scheme(page, 'dark', name, ready);
const light = (page: Page, name: string, ready: Ready) => scheme(page, 'light', name, ready);
