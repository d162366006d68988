import type { Page, Request } from 'playwright-core';
import { DEMO_ACCOUNTS, DEMO_ENTITY, demoDeviceId, provisionDemoFleet } from '../../apps/simulator/src/demo-fleet.ts';
import { ADMIN, type Account, type Harness } from './browser.ts';

export type { Account };

/**
 * The role tours of issue 25: an account of each role visits every route of the spec, follows
 * every link and row-menu item it is shown, opens the dialogs its buttons offer and presses Save
 * where there is one; every API answer of 400 or more is recorded, and every screen must have
 * stopped loading within 5 s. A role must never be shown a control that the server refuses (403).
 */

export const LOAD_BUDGET_MS = 5_000;
export const DEVICE = demoDeviceId(0);
export const DATAVIEW = 'welcome_kiosk';
/** The demo entity (sites, kiosks, groups, dataviews, 4 devices) and an account of each entity role. */
export async function seedRoles(h: Harness): Promise<Record<'admin' | 'developer' | 'operator' | 'infra', Account>> {
  await provisionDemoFleet({ baseUrl: h.server.url, admin: ADMIN }, 4);
  const root = (await h.server.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token as string;
  const add = async (subtype: string): Promise<Account> => {
    const account = { name: `role_${subtype}`, password: 'password-1' };
    const document = { ...account, email: `${account.name}@example.com`, subtype, entity: DEMO_ENTITY, access: [] };
    const answer = await h.server.request('POST', '/api/v1/account', { token: root, body: { document } });
    if (answer.status !== 201) throw new Error(`account ${subtype}: ${answer.status}`);
    return account;
  };
  const [admin, operator] = DEMO_ACCOUNTS;
  return { admin, operator, developer: await add('developer'), infra: await add('infra') };
}

/** The entity screens of core §2 and fleet §2 (plus kiosks), with the demo's names. */
export const ENTITY_ROUTES = (self: string) => [
  '/account',
  '/account/new',
  '/account/demo_admin',
  `/account/${self}`,
  '/settings',
  '/entity/config',
  '/dataview',
  '/dataview/new',
  `/dataview/${DATAVIEW}`,
  `/appbuilder/${DATAVIEW}`,
  '/site',
  '/site/new',
  '/site/Berlin_HQ',
  '/kiosk',
  '/kiosk/new',
  '/kiosk/Berlin_Lobby',
  '/dispenser',
  '/dispenser/new',
  '/dispenser/Lobby_Left',
  '/device',
  '/device/new',
  '/devices/new-multiple',
  `/device/${DEVICE}`,
  `/device/${DEVICE}/allocate`,
  `/device/${DEVICE}/deploy`,
  '/beacon-demo',
];

/** The landlord's screens (the superadmin's own; "inside an entity" is tested elsewhere). */
export const LANDLORD_ROUTES = [
  '/entity',
  '/entity/new',
  `/entity/${DEMO_ENTITY}`,
  '/saccounts',
  '/saccounts/new',
  '/saccounts/demo_admin',
  '/sdevices',
  '/sdevices/new',
  `/sdevices/${DEVICE}`,
  '/sDataview',
  '/settings',
];

const LOADING = '[role="status"][aria-label="Loading"], .mantine-Skeleton-root, [aria-busy="true"]';
const API = /\/(api\/v1|kiosk-manager\/v1)\//;
// Event streams and sockets stay open: they are not calls that settle.
const STREAM = /\/events|socket\.io|\/stream/;

export interface TourReport {
  /** `403 PUT /api/v1/… (on /site/x)` for every answer of 400 or more. */
  failures: string[];
  /** Screens still showing a loader after 5 s. */
  slow: string[];
  visited: string[];
  /** Links and menu items that led to a screen saying the account may not use it. */
  deadEnds: string[];
  /** How long each screen took to settle, in ms. */
  timings: Record<string, number>;
}

/**
 * Opens `route` as the console's own links do, without loading the page again (the first visit
 * loads it): a history entry and a popstate event, which the router follows as it does Back and
 * Forward. Resolves once the console has rendered the screen of the location history now holds
 * (after a redirect, the one it led to): the main region's `data-rendered` names that location's
 * key (app/layouts/shell/route-rendered.tsx). Until then the previous screen is still showing,
 * with its links and without a loader. Answers false when no screen rendered within the budget.
 */
async function open(page: Page, route: string, visit: number): Promise<boolean> {
  if (page.url().startsWith('http')) {
    await page.evaluate(
      ([to, key]) => {
        const state = window.history.state as { idx?: number } | null;
        window.history.pushState({ usr: null, key, idx: (state?.idx ?? 0) + 1 }, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      },
      [route, `tour-${visit}`],
    );
  } else {
    await page.goto(route);
  }
  return page
    .waitForFunction(
      () => {
        const shown = (window.history.state as { key?: string } | null)?.key ?? 'default';
        return document.querySelector('main')?.getAttribute('data-rendered') === shown;
      },
      undefined,
      { timeout: LOAD_BUDGET_MS },
    )
    .then(
      () => true,
      () => false,
    );
}

/** Tours `routes` as the signed-in page's account: one page load, then the console's own navigation. */
export async function tour(page: Page, routes: readonly string[]): Promise<TourReport> {
  const report: TourReport = { failures: [], slow: [], visited: [], deadEnds: [], timings: {} };
  let on = '';
  // The calls still open, by request: a count went below zero when a request ended twice (a redirect).
  const inFlight = new Set<Request>();
  page.on('request', (r) => API.test(r.url()) && !STREAM.test(r.url()) && inFlight.add(r));
  const done = (r: Request) => inFlight.delete(r);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', (r) => {
    if (API.test(r.url()) && r.status() >= 400) {
      report.failures.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname} (on ${on})`);
    }
  });
  // Until no call is open and no loader shows, or the budget is spent.
  const settle = async () => {
    const start = Date.now();
    const until = start + LOAD_BUDGET_MS;
    let quiet = 0;
    while (Date.now() < until) {
      const busy = inFlight.size > 0 || (await page.locator(LOADING).filter({ visible: true }).count()) > 0;
      quiet = busy ? 0 : quiet + 1;
      if (quiet === 1) report.timings[on] = Date.now() - start;
      if (quiet >= 3) return;
      await page.waitForTimeout(100);
    }
    const loader = page.locator(LOADING).filter({ visible: true }).first();
    const what = (await loader.count())
      ? (await loader.evaluate((e) => e.outerHTML)).slice(0, 160)
      : `${inFlight.size} calls`;
    report.slow.push(`${on}: ${what}`);
  };

  const queue = [...routes];
  const seen = new Set<string>();
  const from = new Map<string, string>();
  while (queue.length > 0 && seen.size < 80) {
    const route = queue.shift()!;
    if (seen.has(route.toLowerCase())) continue;
    seen.add(route.toLowerCase());
    on = route;
    report.visited.push(route);
    if (!(await open(page, route, report.visited.length))) {
      report.slow.push(`${route}: no screen rendered within ${LOAD_BUDGET_MS} ms`);
      continue;
    }
    await page
      .getByRole('navigation', { name: 'Main' })
      .waitFor()
      .catch(() => {
        throw new Error(`${route}: the console did not open`);
      });
    await settle();
    const main = page.getByRole('main');
    // A control the account was shown must not lead to "you do not have access".
    if (!routes.includes(route) && (await main.getByText(/^You do not have access to/).count())) {
      report.deadEnds.push(`${route} (from ${from.get(route)})`);
    }
    // Links it is shown (New, Edit, Kiosks, Allocate, …), one level from the spec's routes.
    const links = await main
      .locator('a[href^="/"]')
      .filter({ visible: true })
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    // The first row's action menu: its links are followed too.
    const menu = main.locator('button[aria-label^="Actions for"]').filter({ visible: true }).first();
    if (await menu.count()) {
      await menu.click();
      const items = page.locator('a[role="menuitem"][href^="/"]');
      links.push(...(await items.evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))));
      await page.keyboard.press('Escape');
    }
    // Screens only: not downloads (API paths) or the sign-in page.
    const screens = links.filter((l) => !/^\/(auth|api|kiosk-manager)\//.test(l));
    if (routes.includes(route)) {
      for (const link of screens.map(decodeURI)) if (!from.has(link)) from.set(link, route);
      queue.push(...screens.map(decodeURI));
    }
    // Dialogs its buttons open, then Save where the screen offers it.
    for (const name of ['Files', 'Firmwares', 'Firmware', 'Manage Beacons']) {
      const button = main.getByRole('button', { name, exact: true }).filter({ visible: true }).first();
      if (!(await button.count()) || !(await button.isEnabled())) continue;
      await button.click();
      await settle();
      await page.keyboard.press('Escape');
    }
    const save = main.getByRole('button', { name: 'Save', exact: true }).filter({ visible: true }).first();
    if ((await save.count()) && (await save.isEnabled())) {
      await save.click();
      await settle();
    }
  }
  return report;
}

export const forbidden = (report: TourReport) => report.failures.filter((f) => f.startsWith('403 '));
