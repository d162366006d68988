import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from './helpers/axe.ts';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

let h: Harness;
let root = '';
const api = (method: string, path: string, body?: unknown) =>
  h.server.request(method, `/api/v1/${path}`, { token: root, body });

const BOSS = { name: 'boss', password: 'password-1' };
const READER = { name: 'reader', password: 'password-1' };
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));
const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
const item = (page: Page, id: string) => page.locator(`[data-item="${id}"]`);
const unexpected = (errors: string[]) =>
  errors.filter(
    (e) => !/Failed to load resource: the server responded with a status of (400|404|409|413)|not saved/.test(e),
  );

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness();
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  for (const name of ['acme', 'globex', 'initech'])
    await api('POST', 'tenant', { document: { name: { name, description: `${name} corp` } } });
  const account = (name: string, subtype: string, entity: string) =>
    api('POST', 'account', {
      document: { name, email: `${name}@test.example`, password: 'password-1', subtype, entity, access: ['all'] },
    });
  await account(BOSS.name, 'admin', 'acme');
  await account('dev1', 'developer', 'acme');
  await account('gdev', 'developer', 'globex');
  await account('ia', 'admin', 'initech');
  await account('ib', 'developer', 'initech');
  for (let i = 0; i < 23; i++)
    await api('POST', 'tenant/initech/dataview', {
      document: {
        name: `screen_${String(i).padStart(2, '0')}`,
        version: i % 2 ? '2.0' : '1.0',
        owner: i < 5 ? 'ib' : 'ia',
        description: `Screen ${i}`,
      },
    });
  await api('POST', 'tenant/globex/dataview', { document: { name: 'g_view', version: '1.0', owner: 'gdev' } });
  await api('POST', 'tenant/globex/dataview', { document: { name: 'g_board', version: '3.0', owner: 'gdev' } });
  await api('POST', 'account', {
    document: { ...READER, email: 'r@test.example', subtype: 'operator', entity: 'globex', access: ['Dataview_read'] },
  });
});
afterAll(async () => h?.close());

/** Drags from the centre of `from` by (dx, dy) pixels in small steps, as a hand would. */
async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx / 2, from.y + dy / 2, { steps: 8 });
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 8 });
  await page.mouse.up();
}

describe.skipIf(!chromiumPath)('dataviews in Chromium', () => {
  it('creates a dataview, designs a layout by dragging and resizing, finds it after a reload, downloads it', async () => {
    const { page, context, errors } = await h.newPage({ as: BOSS });
    await page.goto('/dataview');
    await page.getByText('No Dataviews Found').waitFor();
    await audit(page, 'dataviews-empty', (p) => p.getByText('No Dataviews Found').waitFor());
    await page.getByRole('link', { name: 'Add Dataview' }).click();

    await field(page, 'Name').fill('lobby screen');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The field may contain alpha-numeric characters as well as underscores').waitFor();
    await page.getByText('This field is required').first().waitFor();
    await field(page, 'Name').fill('lobby');
    await field(page, 'Version').fill('1.0');
    await field(page, 'Description').fill('Lobby screen');
    // The owner starts as the signed-in admin, who is therefore authorised; dev1 is added.
    await expect(page.getByRole('combobox', { name: /^Owner/ }).inputValue()).resolves.toBe('boss');
    await page.getByRole('checkbox', { name: 'dev1' }).check();
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({
      name: 'big.json',
      mimeType: 'application/json',
      buffer: Buffer.alloc(1_000_001, 32),
    });
    await page.getByText('File is too big. Only files up to 1000000 Bytes are allowed.').waitFor();
    await fileInput.setInputFiles({
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"format": 1,'),
    });
    await page
      .getByText(/JSON/)
      .filter({ hasText: /position|Unexpected|Expected/ })
      .first()
      .waitFor();
    // Typed content must be JSON; emptied again, it means the default content.
    await page.getByRole('textbox', { name: /^Content/ }).fill('{oops');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Is not valid JSON').waitFor();
    await page.getByRole('textbox', { name: /^Content/ }).fill('');
    await audit(page, 'dataviews-create', (p) => field(p, 'Name').waitFor());
    await field(page, 'Name').fill('lobby');
    await field(page, 'Version').fill('1.0');
    await field(page, 'Description').fill('Lobby screen');
    await page.getByRole('checkbox', { name: 'dev1' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await notice(page, 'Dataview saved');
    const row = page.getByRole('row', { name: /lobby/ });
    await expect(row.innerText()).resolves.toMatch(/lobby\s+boss\s+1\.0\s+2\s+Lobby screen/);
    await audit(page, 'dataviews-list', (p) => p.getByRole('row', { name: /lobby/ }).waitFor());

    // The designer opens in a new window.
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Open designer for dataview lobby' }).click();
    const builder = await popup;
    await builder.waitForURL(/\/appbuilder\/lobby$/);
    await builder.getByRole('heading', { name: 'App builder' }).waitFor();
    await builder.getByText('This dataview has no items yet').waitFor();
    await builder.getByRole('button', { name: 'Add Text' }).click();
    await builder.getByRole('button', { name: 'Add Metric' }).click();
    await builder.getByRole('button', { name: 'Add Chart' }).click();
    await item(builder, 'metric_2').waitFor();

    // Drag the chart (column 3, row 1) down two rows; resize the text item to 2 rows high.
    const chart = (await item(builder, 'chart_3').boundingBox())!;
    await drag(builder, { x: chart.x + chart.width / 2, y: chart.y + 16 }, 0, 2 * 135);
    const handle = builder
      .locator('.react-grid-item')
      .filter({ has: item(builder, 'text_1') })
      .locator('.react-resizable-handle');
    const hb = (await handle.boundingBox())!;
    await drag(builder, { x: hb.x + hb.width / 2, y: hb.y + hb.height / 2 }, 0, 135);
    await expect(item(builder, 'chart_3').getAttribute('aria-label')).resolves.toMatch(/column 3, row 3/);
    await expect(item(builder, 'text_1').getAttribute('aria-label')).resolves.toMatch(/1 column wide, 2 rows high/);
    // Keyboard: the metric moves down one cell and grows one column wider… into the chart's old column.
    await item(builder, 'metric_2').focus();
    await builder.keyboard.press('ArrowDown');
    await builder.keyboard.press('Shift+ArrowRight');
    await expect(item(builder, 'metric_2').getAttribute('aria-label')).resolves.toMatch(
      /column 2, row 2, 2 columns wide, 1 row high/,
    );
    await builder.getByRole('textbox', { name: 'Title of Metric metric_2' }).fill('Battery');
    await builder.getByText('Unsaved changes').waitFor();
    await builder.getByRole('button', { name: 'Save layout' }).click();
    await notice(builder, 'Dataview saved');

    // A reload shows the same layout: it is the dataview's content now.
    await builder.reload();
    await expect(item(builder, 'chart_3').getAttribute('aria-label')).resolves.toMatch(/column 3, row 3/);
    await expect(item(builder, 'metric_2').getAttribute('aria-label')).resolves.toMatch(/Battery: column 2, row 2/);
    const saved = (await api('GET', 'tenant/acme/dataview/lobby')).body.data.content;
    const places = saved.layout.items.map((it: { i: string; x: number; y: number; w: number; h: number }) => [
      it.i,
      it.x,
      it.y,
      it.w,
      it.h,
    ]);
    expect(places).toEqual([
      ['text_1', 0, 0, 1, 2],
      ['metric_2', 1, 1, 2, 1],
      ['chart_3', 2, 2, 1, 1],
    ]);
    await audit(builder, 'dataviews-builder', (p) => item(p, 'chart_3').waitFor());
    await builder.close();

    // Download JSON: the content, as the builder saved it.
    await page.reload();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download JSON of dataview lobby' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('lobby.json');
    const downloaded = JSON.parse(fs.readFileSync((await file.path())!, 'utf8'));
    expect(downloaded).toEqual(saved);

    // Edit shows Open Dataview Designer and Download; the owner stays authorised.
    await page.getByRole('button', { name: 'Edit dataview lobby' }).click();
    await page.getByRole('button', { name: 'Open Dataview Designer' }).waitFor();
    await expect(page.getByRole('checkbox', { name: 'boss' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'boss' }).isDisabled()).resolves.toBe(true);
    await audit(page, 'dataviews-edit', (p) => p.getByRole('button', { name: 'Open Dataview Designer' }).waitFor());
    expect(unexpected(errors)).toEqual([]);
  });

  it('pages and filters the landlord list on the server, resetting to page 1 on a filter change', async () => {
    const { page, errors } = await h.newPage({ as: ADMIN });
    await page.goto('/sDataview');
    const range = (text: string) => page.getByText(text, { exact: true }).waitFor();
    const total = (await api('GET', 'dataview?limit=0&offset=0')).body.total;
    await range(`1–15 of ${total} dataviews`);
    await expect(page.locator('tbody tr').count()).resolves.toBe(15);
    await audit(page, 'dataviews-landlord', () => range(`1–15 of ${total} dataviews`));
    await page.getByLabel('Rows per page').selectOption('10');
    await range(`1–10 of ${total} dataviews`);
    await expect(page.getByLabel('Rows per page').locator('option').allInnerTexts()).resolves.toEqual([
      '10',
      '15',
      '20',
      '50',
    ]);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await range(`11–20 of ${total} dataviews`);
    // A filter change goes back to page 1.
    const filters = page.getByRole('complementary');
    await filters.getByRole('checkbox', { name: 'initech' }).click();
    await range('1–10 of 23 dataviews');
    await filters.getByRole('checkbox', { name: '2.0' }).click();
    await range('1–10 of 11 dataviews');
    await page.getByRole('button', { name: 'Page 2' }).click();
    await range('11–11 of 11 dataviews');
    await filters.getByRole('checkbox', { name: 'ib' }).click();
    await range('1–2 of 2 dataviews');
    const names = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(names).toEqual(['screen_01', 'screen_03']);
    await filters.getByRole('checkbox', { name: 'gdev' }).click();
    await range('1–2 of 2 dataviews');
    await filters.getByRole('checkbox', { name: 'globex' }).click();
    await range('1–2 of 2 dataviews');
    await filters.getByRole('checkbox', { name: '2.0' }).click();
    await range('1–7 of 7 dataviews');
    await filters.getByRole('checkbox', { name: 'initech' }).click();
    await filters.getByRole('checkbox', { name: 'ib' }).click();
    await range('1–2 of 2 dataviews');
    await filters.getByRole('checkbox', { name: '2.0' }).click();
    await page.getByText('No Dataviews Found').waitFor();
    await audit(page, 'dataviews-landlord-empty', (p) => p.getByText('No Dataviews Found').waitFor());
    // Selection, and the superadmin's actions on a row.
    await filters.getByRole('checkbox', { name: '2.0' }).click();
    await page.getByRole('checkbox', { name: 'Select dataview g_view of globex' }).check();
    await page.getByText('1 selected').waitFor();
    await page.getByRole('button', { name: 'Delete dataview g_view' }).click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await notice(page, 'Dataview deleted');
    await range('1–1 of 1 dataview');
    // Edit from the landlord list: the row's entity travels along, and Save returns to the same filters.
    await page.getByRole('button', { name: 'Edit dataview g_board' }).click();
    await page.getByText('g_board in entity globex').waitFor();
    await field(page, 'Description').fill('Board of globex');
    await page.getByRole('button', { name: 'Save' }).click();
    await notice(page, 'Dataview saved');
    await page.getByRole('row', { name: /g_board.*Board of globex/ }).waitFor();
    expect(new URL(page.url()).search).toBe('?entity=globex&owner=gdev&size=10');
    expect(unexpected(errors)).toEqual([]);
  });

  it('shows a Dataview_read account the list and a read-only builder, without the change controls', async () => {
    const { page, errors } = await h.newPage({ as: READER });
    await page.goto('/dataview');
    await page.getByRole('row', { name: /g_board/ }).waitFor();
    await expect(page.getByRole('link', { name: 'Add Dataview' }).count()).resolves.toBe(0);
    await expect(page.getByRole('columnheader', { name: 'Actions' }).count()).resolves.toBe(0);
    await page.goto('/appbuilder/g_board');
    await page.getByText('Read only').waitFor();
    await expect(page.getByRole('button', { name: 'Add Text' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Save layout' }).count()).resolves.toBe(0);
    expect(unexpected(errors)).toEqual([]);
  });
});
