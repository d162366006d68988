import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chromiumPath } from './helpers/browser.ts';
import {
  api,
  BOSS,
  choose,
  csvFile,
  field,
  id,
  notice,
  rowOf,
  rows,
  seedGlobex,
  startWorld,
  unexpected,
  world,
} from './helpers/devices-world.ts';

/** Many devices at once: a CSV upload, the landlord's filtered and paged list, the landlord's add. */

beforeAll(async () => {
  if (!chromiumPath) return;
  await startWorld({ shared: { prefix: 'dlist', hex: '0d15' } });
});
afterAll(async () => world.h?.close());

describe.skipIf(!chromiumPath)('device lists in Chromium', () => {
  it('uploads a CSV: bad and duplicate rows are reported, the good ones are added', async () => {
    await api('POST', `tenant/${world.acme}/device`, { document: { name: 'aaaa00000001', description: 'exists' } });
    const { page, errors } = await world.h.pageAs(BOSS);
    await page.goto('/device');
    await page.getByRole('link', { name: 'Add Multiple Devices' }).click();
    await page.waitForURL((u) => u.pathname === '/devices/new-multiple');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download a template' }).click();
    const template = await download;
    expect(template.suggestedFilename()).toBe('devices-template.csv');
    const text = fs.readFileSync(await template.path(), 'utf8');
    expect(text.match(/^[0-9a-f]{12},/gm)).toHaveLength(3);

    await page.getByRole('button', { name: 'Add Devices' }).click();
    await notice(page, 'Please upload a valid CSV and enter the manufacturing type.');

    const input = page.locator('input[type="file"]');
    await input.setInputFiles(csvFile('id,description\n"broken\n'));
    await notice(page, 'Failed to parse CSV file. Please check the format.');

    const csv = [
      '\uFEFFDevice ID,Description,Version ID',
      'aaaa00000010,"Hall, east",1.0',
      'NOT-AN-ID,Bad one,',
      'aaaa00000001,Already registered,',
      '',
      'aaaa00000011,"Quote ""B""",2.0',
      'aaaa00000010,Listed twice,',
      'aaaa00000012,Third,',
    ].join('\r\n');
    await input.setInputFiles(csvFile(csv));
    await page.getByText('Preview: 6 devices in the file').waitFor();
    await page.getByText('+ 1 more device').waitFor();
    const invalid = page.getByRole('table', { name: 'Rows that will not be sent' });
    await invalid.getByText('Device ID: listed twice (also on line 2)').waitFor();
    await invalid.getByText(/Has to be a 12 hex/).waitFor();

    await field(page, 'Manufacture type').fill('Dispenser v2');
    await page.getByRole('button', { name: 'Add Devices' }).click();
    await notice(page, 'Failed to add devices. Please try again.');
    const failed = page.getByRole('table', { name: 'Rows not added' });
    await failed
      .getByRole('row', { name: /aaaa00000001/ })
      .getByText('This Device ID is already registered')
      .waitFor();
    await failed
      .getByRole('row', { name: /NOT-AN-ID/ })
      .getByText('Not sent: invalid')
      .waitFor();
    expect(await failed.locator('tbody tr').count()).toBe(3);
    await page.getByText('3 added · 1 failed · 2 invalid').waitFor();
    for (const name of ['aaaa00000010', 'aaaa00000011', 'aaaa00000012']) {
      const { body } = await api('GET', `device/${name}`);
      expect(body.data.manufacturing_type).toBe('CC1');
    }
    expect((await api('GET', 'device/aaaa00000011')).body.data).toMatchObject({
      description: 'Quote "B"',
      version_id: '2.0',
    });
    const retry = page.getByRole('button', { name: 'Retry failed rows (1)' });
    await retry.click();
    // The first send's notice, with the same words, may still be showing: the retry has ended
    // when its button is no longer busy. A file chosen before then is replaced by its results.
    await expect.poll(() => retry.isEnabled()).toBe(true);
    await notice(page, 'Failed to add devices. Please try again.');

    // A clean file: everything is added and the list opens.
    await input.setInputFiles(csvFile('device_id\naaaa00000020\naaaa00000021\n'));
    await page.getByText('Preview: 2 devices in the file').waitFor();
    await page.getByRole('button', { name: 'Add Devices' }).click();
    await notice(page, '2 devices added successfully.');
    // The credentials of every device added on this visit are offered once (issue 25): the three
    // of the first file and these two; then the list opens.
    await page.getByRole('heading', { name: '5 devices added' }).waitFor();
    await page.getByRole('button', { name: 'Go to the device list' }).click();
    await page.waitForURL((u) => u.pathname === '/device');
    await rowOf(page, 'aaaa00000021').waitFor();
    expect(unexpected(errors)).toEqual([]);
  });

  it('filters the landlord list through the server, keeping the filters in the URL', async () => {
    await seedGlobex();
    const { page, errors } = await world.h.pageAs(ADMIN);
    await page.goto('/sdevices');
    await page.getByRole('columnheader', { name: 'Entity' }).waitFor();
    await page.getByRole('button', { name: /^Filters/ }).click();
    await choose(page, 'Entity', world.globex);
    await page.waitForURL((u) => u.searchParams.get('entity') === world.globex);
    await page.getByText('45 devices match').waitFor();
    await choose(page, 'Status', 'ERROR');
    await page.getByText('9 devices match').waitFor();
    // Two states of one field: either (OR). The list stays open after a pick.
    await page.getByRole('option', { name: 'DFU' }).click();
    await page.getByText('18 devices match').waitFor();
    // Closed as a person would before the next field: the open list can lie over it.
    await page.keyboard.press('Escape');
    await choose(page, 'Battery', /Charging/);
    // i ≡ 0 (mod 4) and i ≡ 1 (ERROR) or 3 (DFU) (mod 5): 16, 36 and 8, 28.
    await page.getByText('4 devices match').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => rows(page).count()).toBe(4);
    for (const [i, state] of [
      [16, 'ERROR'],
      [36, 'ERROR'],
      [8, 'DFU'],
      [28, 'DFU'],
    ] as const) {
      await rowOf(page, id(world.globexHex, i)).getByLabel('Charging').waitFor();
      await rowOf(page, id(world.globexHex, i)).getByText(state, { exact: true }).waitFor();
    }
    await page.reload();
    await expect.poll(() => rows(page).count()).toBe(4);
    expect(new URL(page.url()).search).toBe(`?entity=${world.globex}&status=ERROR&status=DFU&battery=Charging`);

    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((u) => u.search === '');
    expect(errors).toEqual([]);
  });

  it('pages a filtered landlord list through the server, keeping the page in the URL', async () => {
    await seedGlobex();
    const { page, errors } = await world.h.pageAs(ADMIN);
    await page.goto('/sdevices');
    await page.getByRole('columnheader', { name: 'Entity' }).waitFor();
    await page.getByRole('button', { name: /^Filters/ }).click();
    await choose(page, 'Entity', world.globex);
    await choose(page, 'Battery', /High/);
    await page.getByText('15 devices match').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('1–15 of 15 devices').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((u) => u.search === '');
    await page.getByRole('button', { name: /^Filters/ }).click();
    await choose(page, 'Entity', world.globex);
    await page.getByRole('button', { name: 'Done' }).click();

    await field(page, 'Rows per page').selectOption('10');
    await page.getByText('1–10 of 45 devices').waitFor();
    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText('11–20 of 45 devices').waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    // Newest first: seeded device i was created i minutes ago.
    await expect.poll(() => rows(page).first().getByRole('link').textContent()).toBe(id(world.globexHex, 10));
    await page.reload();
    await page.getByText('11–20 of 45 devices').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    expect(new URL(page.url()).searchParams.get('size')).toBe('10');

    // Device 18 last reported 45 minutes ago: its row is marked unresponsive.
    const stale = rowOf(page, id(world.globexHex, 18));
    await stale.getByText('Unresponsive').waitFor();
    expect(await stale.getAttribute('data-unresponsive')).toBe('true');
    expect(await rowOf(page, id(world.globexHex, 17)).getAttribute('data-unresponsive')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('sorts the landlord list by Last Updated, quiet devices first, exports it as CSV and searches it', async () => {
    await seedGlobex();
    const { page, errors } = await world.h.pageAs(ADMIN);
    await page.goto(`/sdevices?entity=${world.globex}&size=10`);
    await page.getByText('1–10 of 45 devices').waitFor();

    // Quiet devices first: Last Updated starts latest first, a second click turns it round.
    await page.getByRole('button', { name: /Last Updated/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'updated_at' && !u.searchParams.has('page'));
    await page.getByRole('button', { name: /Last Updated/ }).click();
    await page.waitForURL((u) => u.searchParams.get('order') === 'asc');
    const quiet = [0, 9, 18, 27, 36].map((i) => id(world.globexHex, i));
    await expect.poll(async () => (await rows(page).getByRole('link').allTextContents()).slice(0, 5)).toEqual(quiet);

    // Export CSV: every page of the filtered list, in its order, with the table's columns.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^devices-${world.globex}-\\d{4}-\\d\\d-\\d\\d\\.csv$`));
    const lines = fs
      .readFileSync(await file.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Device ID,Groups,Entity,Version,Status,Created Date,Last Updated,Battery,Charging');
    expect(lines).toHaveLength(46);
    expect(lines.slice(1, 6).map((l) => l.split(',')[0])).toEqual(quiet);
    expect(lines[1]).toMatch(
      new RegExp(
        `^[0-9a-f]{12},,${world.globex},1\\.5\\.2,ALLOCATED,\\d\\d\\.\\d\\d\\.\\d{4},\\d\\d\\.\\d\\d\\.\\d{4} \\d\\d:\\d\\d:\\d\\d,90,yes$`,
      ),
    );

    await page.getByRole('button', { name: /Device ID/ }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'name' && !u.searchParams.has('page'));
    await expect.poll(() => rows(page).first().getByRole('link').textContent()).toBe(id(world.globexHex, 0));
    await field(page, 'Search devices').fill('Seeded 44');
    await page.waitForURL((u) => u.searchParams.get('search') === 'Seeded 44');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('lets the landlord add a device to a chosen entity', async () => {
    const { page, errors } = await world.h.pageAs(ADMIN);
    await page.goto('/sdevices');
    await page.getByRole('link', { name: 'Add Device' }).first().click();
    await page.waitForURL((u) => u.pathname === '/sdevices/new');
    await field(page, 'Device ID').fill('abcdef000001');
    await page.getByRole('button', { name: 'Add Device' }).click();
    await page.getByText('This field is required').waitFor();
    await choose(page, 'Entity', new RegExp(`^${world.initech}`));
    await page.getByRole('button', { name: 'Add Device' }).click();
    await page
      .getByRole('dialog', { name: 'Device added: its MQTT credentials' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.waitForURL((u) => u.pathname === '/sdevices');
    await rowOf(page, 'abcdef000001').getByText(world.initech, { exact: true }).waitFor();
    expect((await api('GET', `tenant/${world.initech}/device/abcdef000001`)).status).toBe(200);

    // The landlord's bulk upload names the entity too.
    await page.goto('/devices/new-multiple');
    await page.getByRole('combobox', { name: 'Entity', exact: true }).waitFor();
    await api('DELETE', 'device/abcdef000001');
    expect(errors).toEqual([]);
  });
});
