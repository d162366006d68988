import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, SHOTS_DIR } from './helpers/axe.ts';
import { chromiumPath, signIn } from './helpers/browser.ts';
import { BOSS, id, MINUTE, rows, seed, seedGlobex, startWorld, unexpected, world } from './helpers/devices-world.ts';

/** Issue 27 in Chromium: the fleet health screen, and its Low battery bar opening exactly those devices. */
const HOUR = 60 * MINUTE;
const BATTERIES = [92, 64, 18, 81, 40, 55, 12, 77, 99, 30];
const LOW = BATTERIES.flatMap((b, i) => (b <= 50 ? [id('f1ee', i)] : []));

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'fleet', hex: '0f0e' } });
  await seed(world.acme, 'f1ee', BATTERIES.length, (i) => ({
    battery: BATTERIES[i],
    is_charging: i % 4 === 1,
    state_current: ['ALLOCATED', 'WAITING', 'ERROR'][i % 3],
    fw_version: i % 3 ? '1.5.2' : '1.4.0',
    manufacturing_type: i % 2 ? 'CC2' : 'CC1',
    online: i % 3 !== 2,
    created_at: new Date(Date.now() - 3 * 24 * HOUR),
    updated_at: new Date(Date.now() - (i % 5 === 4 ? 2 * HOUR : i * MINUTE)),
  }));
  await seedGlobex(); // another entity's Low devices must not be counted or listed
  // A day of the hourly roll-up, so the presence chart has columns: 180 rows in one statement
  // (one a statement cost the file's set-up some 180 round trips to the database thread).
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const rollup = [];
  for (let h = 1; h <= 24; h++)
    for (let i = 0; i < BATTERIES.length; i++)
      if ((i + h) % 4 !== 0)
        rollup.push(sql`(${world.acme}, ${id('f1ee', i)}, ${new Date(hour - h * HOUR).toISOString()}::timestamptz, 3,
          0, ${(i + h) % 3 ? 3600 : 0}, '{}'::jsonb)`);
  await world.h.server.app.db.execute(sql`
    insert into device_telemetry_hourly (entity, device, hour, points, charging_s, online_s, state_s)
    values ${sql.join(rollup, sql`, `)}`);
});
afterAll(async () => world.h?.close());

describe.skipIf(!chromiumPath)('fleet health in Chromium', () => {
  it('shows the fleet now and over a day, light, dark and on a phone; the Low battery bar opens exactly those devices', async () => {
    const { page, errors } = await world.h.newPage();
    await signIn(page, BOSS);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Fleet health' }).click();
    await page.waitForURL((u) => u.pathname === '/fleet');
    const low = page.getByRole('link', { name: `Open the devices with Low battery: ${LOW.length} devices` });
    await low.waitFor();
    await page.getByRole('img', { name: /^Devices online and unresponsive over the last 24 h/ }).waitFor();

    await audit(page, 'fleet-health', (p) => p.getByRole('link', { name: /with Low battery:/ }).waitFor());
    await page.setViewportSize({ width: 375, height: 800 });
    await low.waitFor();
    await page.screenshot({ path: path.join(SHOTS_DIR, 'fleet-health-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await low.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/device' && u.searchParams.get('battery') === 'Low');
    await expect.poll(() => rows(page).count()).toBe(LOW.length);
    const shown = await rows(page).evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
    for (const name of LOW) expect(shown.some((text) => text.includes(name))).toBe(true);
    expect(unexpected(errors)).toEqual([]);
  });
});
