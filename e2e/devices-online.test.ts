import { eq, sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_ENTITY, provisionDemoFleet, type DemoFleet } from '../apps/simulator/src/demo-fleet.ts';
import { startFleet, type Fleet } from '../apps/simulator/src/fleet.ts';
import { devices } from '../apps/server/src/db/schema.ts';
import { backfillDemoHistory } from '../apps/server/src/domain/telemetry/demo-history.ts';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * The demo fleet online: the same setup as `npm run demo` against the real server, simulated
 * devices over the embedded broker, and an operator working the device list in Chromium.
 */
let h: Harness;
let demo: DemoFleet;
let fleet: Fleet;
const OPERATOR = DEMO_ACCOUNTS[1];

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  demo = await provisionDemoFleet({ baseUrl: h.server.url, admin: ADMIN });
  // npm run demo's past (scripts/demo.mjs), for one dispenser and the dead one: cheap, and the same code.
  await backfillDemoHistory(
    h.server.app.db,
    { entity: DEMO_ENTITY, devices: [demo.simulated[0]!.name, demo.silent.at(-1)!], dead: demo.silent.at(-1)! },
    { rawDays: 30, hourlyDays: 400 },
  );
  // Awake and faultless, so the one command the test sends meets a listening device.
  fleet = await startFleet({ devices: demo.simulated, url: h.server.mqttUrl, sleeps: false, rampMs: 500 });
  // One silent device last heard from 30 minutes ago: the 20-minute rule without a 20-minute wait.
  await h.server.app.db
    .update(devices)
    .set({ updated_at: sql`now() - interval '30 minutes'` })
    .where(eq(devices.name, demo.silent[0]!));
});
afterAll(async () => {
  await fleet?.stop();
  await h?.close();
});

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });

describe.skipIf(!chromiumPath)('the demo fleet in the console', () => {
  it('shows the simulated devices reporting, with their firmware and battery', async () => {
    const { page, errors } = await h.newPage({ as: OPERATOR });
    await page.goto('/device?size=50');
    // Every simulated device has connected and reported its firmware version.
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('table').waitFor();
          return page
            .getByRole('row')
            .filter({ hasText: /\d+\.\d+\.\d+/ })
            .count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBeGreaterThanOrEqual(demo.simulated.length);
    const total = demo.simulated.length + demo.silent.length;
    // Every demo device stands in one of the demo's groups (demo-org.ts).
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: /Lobby_Left|Lobby_Right|Ward_3|Munich_Main/ })
        .count(),
    ).toBe(total);
    await audit(page, 'demo-fleet-list', (p) => p.getByText(`1–${total} of ${total} devices`).waitFor());
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('vibrates a device from its row menu and reports success', async () => {
    const { page, errors } = await h.newPage({ as: OPERATOR });
    await page.goto('/device?size=50');
    const target = demo.simulated[0]!.name;
    await row(page, target)
      .getByRole('button', { name: `Actions for device ${target}` })
      .click();
    await page.getByRole('menuitem', { name: 'Vibrate' }).click();
    await page
      .getByText(/Vibrate .*sent|succeeded|Success/i)
      .first()
      .waitFor();
    // The device got V10 and answered: the command's history says so.
    const history = await h.server.request('GET', `/api/v1/tenant/${DEMO_ENTITY}/device/${target}/commands`, {
      token: (await h.server.request('POST', '/api/v1/login', { body: OPERATOR })).body.access_token,
    });
    expect(history.body.data[0]).toMatchObject({ type: 'vibrate', payload: { song: 'V10' }, state: 'succeeded' });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("has the demo's month of history: a dispenser's hours over 25 days, the dead one quiet for 5", async () => {
    const token = (await h.server.request('POST', '/api/v1/login', { body: OPERATOR })).body.access_token;
    const from = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const history = async (name: string) =>
      (await h.server.request('GET', `/api/v1/tenant/${DEMO_ENTITY}/device/${name}/telemetry?from=${from}`, { token }))
        .body.data as { resolution: string; buckets: Array<{ at: string; battery_mean: number | null }> };
    const month = await history(demo.simulated[0]!.name);
    expect(month.resolution).toBe('hourly');
    const days = new Set(month.buckets.filter((b) => b.battery_mean !== null).map((b) => b.at.slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(25);
    const dead = (await history(demo.silent.at(-1)!)).buckets.filter((b) => b.battery_mean !== null);
    expect(dead.length).toBeGreaterThan(0);
    expect(Date.now() - Date.parse(dead.at(-1)!.at)).toBeGreaterThanOrEqual(5 * 86_400_000);
  });

  it('offers no command for an unresponsive device', async () => {
    const { page } = await h.newPage({ as: OPERATOR });
    await page.goto('/device?size=50');
    const silent = demo.silent[0]!;
    const r = row(page, silent);
    await expect(r.getAttribute('data-unresponsive')).resolves.toBe('true');
    await r.getByRole('button', { name: `Actions for device ${silent}` }).click();
    for (const name of ['Refresh', 'Vibrate', 'Reboot']) {
      await expect(page.getByRole('menuitem', { name }).isDisabled()).resolves.toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.context().close();
  });
});
