import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, auditAt } from './helpers/axe.ts';
import { chromiumPath, signIn } from './helpers/browser.ts';
import {
  BOSS,
  CHIEF,
  csvFile,
  field,
  id,
  MINUTE,
  seed,
  seedGlobex,
  startWorld,
  unexpected,
  world,
} from './helpers/devices-world.ts';

/** The device screens judged by axe in light and dark, on data seeded for them (independent of the other device files). */
// Device ids are unique across entities, and the file runs on its worker's shared server: its own.
const EDITED = id('a11e', 1);
const TAKEN = id('a11e', 0x10);

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'a11y', hex: '0a11' } });
  // The screens' data straight into the database: acme's device as devices.test.ts creates and
  // edits one, a row the bulk upload's duplicates meet, globex's 45, and nothing in initech.
  await seed(world.acme, 'a11e', 1, () => ({
    name: EDITED,
    description: 'Reception, left',
    group: 'hall_a',
    mac_1: '240ac40a2e48ab3a',
    version_id: 'hw-2',
  }));
  await seed(world.acme, 'a11e', 1, () => ({ name: TAKEN }));
  await seedGlobex();
  await seed(world.acme, 'a11d', 12, (i) => ({
    state_current: ['ALLOCATED', 'PROVISIONING', 'ERROR', 'BOOTING', 'RETIRED', null][i % 6],
    battery: [95, 70, 35, null][i % 4],
    is_charging: i % 3 === 0,
    fw_version: i % 2 ? '2.0.1' : null,
    group: i % 2 ? 'hall_a' : null,
    updated_at: new Date(Date.now() - (i === 3 ? 60 * MINUTE : i * 70_000)),
  }));
});
afterAll(async () => world.h?.close());

describe.skipIf(!chromiumPath)('device screens in Chromium', () => {
  it('has no serious accessibility violations on the entity admin’s device list and forms, light and dark', async () => {
    const { page, errors } = await world.h.pageAs(BOSS);
    await auditAt(page, '/device', 'devices-list', (p) => p.getByText(/of \d+ devices/).waitFor());
    await auditAt(page, '/device?status=ERROR', 'devices-list-filters', async (p) => {
      await p.getByRole('button', { name: /^Filters/ }).click();
      await p.getByText('2 devices match').waitFor();
    });
    await auditAt(page, '/device?search=nothing-matches-this', 'devices-list-no-match', (p) =>
      p.getByText('No devices match these filters').waitFor(),
    );
    await auditAt(page, '/device/new', 'devices-create', async (p) => {
      await field(p, 'Device ID').fill('nope');
      await p.getByRole('button', { name: 'Add Device' }).click();
      await p.getByText(/Has to be a 12 hex/).waitFor();
    });
    await auditAt(page, `/device/${EDITED}`, 'devices-edit', (p) => p.getByText('Device status').waitFor());
    expect(unexpected(errors)).toEqual([]);
  });

  it('has no serious accessibility violations on the bulk upload, the landlord list and an empty list, light and dark', async () => {
    // The file's last test as boss: it signs out, which ends the page's session.
    const { page, errors } = await world.h.pageAs(BOSS);
    await page.goto('/devices/new-multiple');
    const preview = [
      'Device ID,Description',
      ...Array.from({ length: 8 }, (_, i) => `${id('a11e', 0x100 + i)},Unit ${i}`),
      'bad-id,Broken',
    ].join('\n');
    await audit(page, 'devices-bulk-preview', async (p) => {
      await p.locator('input[type="file"]').setInputFiles(csvFile(preview));
      await p.getByText('+ 4 more devices').waitFor();
    });
    // Only rows that fail whatever happens, so the light and dark runs show the same results.
    const failing = `Device ID\n${EDITED}\n${TAKEN}\nXYZ\n`;
    await audit(page, 'devices-bulk-failures', async (p) => {
      await field(p, 'Manufacture type').fill('Dispenser v2');
      await p.locator('input[type="file"]').setInputFiles(csvFile(failing));
      await p.getByRole('button', { name: 'Add Devices' }).click();
      await p.getByText('0 added · 2 failed · 1 invalid').waitFor();
    });

    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await signIn(page);
    await auditAt(page, `/sdevices?entity=${world.globex}&size=10`, 'devices-landlord-list', (p) =>
      p.getByText('1–10 of 45 devices').waitFor(),
    );
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await signIn(page, CHIEF);
    await auditAt(page, '/device', 'devices-list-empty', (p) => p.getByText('No devices yet').waitFor());
    expect(unexpected(errors)).toEqual([]);
  });
});
