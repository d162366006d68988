import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

/**
 * Offline (issue 25, item 2): nothing is queued to run later. A command and a save made while
 * the browser is offline fail at once with 'Network error' (core §8) under an offline banner,
 * and when the connection returns neither goes out by itself.
 */
let h: Harness;
let root = '';
const api = (method: string, path: string, body?: unknown) =>
  h.server.request(method, `/api/v1/${path}`, { token: root, body });

// Names no other file uses: the file runs on its worker's shared server.
const ENTITY = 'offline_corp';
const BOSS = { name: 'offline_boss', password: 'password-1' };
const DEVICE = 'cafe00000001';
/** 'At once': well under the 5 s a screen may take, and far from the 0.3 s a queue would need to show. */
const AT_ONCE = { timeout: 3_000 };

beforeAll(async () => {
  if (!chromiumPath) return;
  h = await startHarness({ shared: true });
  root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
  await api('POST', 'tenant', { document: { name: { name: ENTITY, description: 'offline corp' } } });
  await api('POST', 'account', {
    document: { ...BOSS, email: 'boss@test.example', subtype: 'admin', entity: ENTITY, access: ['all'] },
  });
  // Never connected, so asleep: a Vibrate is accepted and held (202), which is what a queue would hit.
  await api('POST', `tenant/${ENTITY}/device`, { document: { name: DEVICE, description: 'Hall dispenser' } });
});
afterAll(async () => h?.close());

const description = (page: Page) => page.getByLabel(/^Description( \*)?$/);
/** The failed requests the test provokes on purpose by going offline, and the form's log line. */
const unexpected = (errors: string[]) =>
  errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|Device not saved: ApiError: Network error/.test(e));

describe.skipIf(!chromiumPath)('offline in Chromium', () => {
  it('fails a command and a save at once, and sends neither when the connection returns', async () => {
    const { page, context, errors } = await h.newPage({ as: BOSS });
    await page.goto(`/device/${DEVICE}`);
    expect(await description(page).inputValue()).toBe('Hall dispenser');
    // Every change the console makes from here on that reached the server.
    const reached: string[] = [];
    page.on('requestfinished', (r) => {
      if (r.method() !== 'GET') reached.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    const banner = page.getByRole('status').filter({ hasText: 'You are offline.' });
    const vibrate = page.getByRole('button', { name: 'Vibrate', exact: true });
    const save = page.getByRole('button', { name: 'Save', exact: true });

    await context.setOffline(true);
    await banner.waitFor(AT_ONCE);

    await vibrate.click();
    await page.getByText('Vibrate failed to send').waitFor(AT_ONCE);
    await page.getByText(`${DEVICE}: Network error`).waitFor(AT_ONCE);
    expect(await vibrate.getAttribute('aria-busy')).toBeNull();

    await description(page).fill('Changed offline');
    await save.click();
    await page.getByText('Network error', { exact: true }).waitFor(AT_ONCE);
    // Not greyed out waiting for the connection: the form can be saved again.
    expect(await save.getAttribute('data-loading')).toBeNull();
    expect(page.url()).toContain(`/device/${DEVICE}`);

    await context.setOffline(false);
    await banner.waitFor({ state: 'hidden', ...AT_ONCE });
    // A command sent now goes out; had the offline ones been queued, they went out before it.
    await vibrate.click();
    // It never connected: held, and said so (not "asleep").
    await page.getByText(`Device ${DEVICE} has not connected yet`).first().waitFor(AT_ONCE);

    const commands = `/api/v1/tenant/${ENTITY}/mqtt/general/${DEVICE}`;
    expect(reached).toEqual([`POST ${commands}`]);
    const history = (await api('GET', `tenant/${ENTITY}/device/${DEVICE}/commands`)).body.data;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ type: 'vibrate', state: 'queued' });
    expect((await api('GET', `tenant/${ENTITY}/device/${DEVICE}`)).body.data.description).toBe('Hall dispenser');
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  it('says a screen not yet fetched waits for the connection, and opens it when it returns', async () => {
    const { page, context, errors } = await h.newPage({ as: BOSS });
    await page.goto(`/device/${DEVICE}`);
    await description(page).waitFor();
    await context.setOffline(true);
    // The Sites screen's code was never fetched: it cannot be, and it is not 'a new version'.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('alert').filter({ hasText: 'You are offline' }).waitFor(AT_ONCE);
    expect(await page.getByText('A new version is available').count()).toBe(0);

    await context.setOffline(false);
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor(AT_ONCE);
    expect(new URL(page.url()).pathname).toBe('/site');
    expect(unexpected(errors).filter((e) => !/Screen failed to render|dynamically imported module/.test(e))).toEqual(
      [],
    );
    await context.close();
  });
});
