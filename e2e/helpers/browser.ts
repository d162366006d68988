import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { copyPgliteTemplate, startServer, type TestServer } from '../../apps/server/test/helpers/server.ts';

import { ADMIN } from '../../apps/server/test/helpers/server.ts';

export { ADMIN };

/** Debian's Chromium, or '' when it is not installed (the tier is then skipped, loudly). */
export const chromiumPath = inject('chromium');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Account {
  name: string;
  password: string;
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export interface Harness {
  server: TestServer;
  browser: Browser;
  /**
   * A fresh browser context with a page on about:blank. With `as`, the context starts signed in
   * as that account (its localStorage holds the session the console stores after the form), so
   * the first `page.goto` opens the console itself; otherwise its localStorage is empty.
   */
  newPage(opts?: { as?: Account }): Promise<OpenPage>;
  /**
   * The file's one page for `who`: opened signed in (as `newPage({ as })`) on the console's home
   * by the first test that asks, and the same page, where the last test left it, for the later ones. A fresh context
   * costs Chromium a cold load of the console (6–7 s of CPU on this box); a move inside a warm one
   * a fraction of it. `errors` is emptied on each call, so a test reads only its own. For tests
   * that are not about a cold load and that do not end the account's session.
   */
  pageAs(who: Account): Promise<OpenPage>;
  /**
   * `make()` once per server: on the worker's shared server, the first file that asks makes it
   * and the later ones get the same answer (data every file of a kind reads and none changes).
   */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Closes the contexts this harness opened, and its server unless the worker shares it. */
  close(): Promise<void>;
}

// A shared session is signed in again once it is this old: the console refreshes a stored access
// token that has less than 5 of its 15 minutes left as it starts, and a refresh token spent by
// one page and presented again by another ends the whole session (reuse detection).
const SESSION_REUSE_MS = 5 * 60_000;

type StorageState = Exclude<NonNullable<Parameters<Browser['newContext']>[0]>['storageState'], string | undefined>;

/**
 * One sign-in per account per harness, through the API, shared by the file's pages as a storage
 * state: the four values the console's sign-in stores (lib/session/session-storage.ts).
 */
function sessionCache(server: TestServer): (who: Account) => Promise<StorageState> {
  const cache = new Map<string, { at: number; state: Promise<StorageState> }>();
  const signInByApi = async (who: Account): Promise<StorageState> => {
    const answer = await server.request('POST', '/api/v1/login', { body: who });
    if (answer.status !== 200) throw new Error(`sign-in of ${who.name}: ${answer.status} ${answer.text}`);
    const { access_token, refresh_token, logged_in_as, entity } = answer.body;
    const values: Record<string, string> = {
      'fleet.username': logged_in_as,
      'fleet.entity': entity ?? 'landlord',
      'fleet.refreshToken': refresh_token,
      'fleet.accessToken': access_token,
    };
    const localStorage = Object.entries(values).map(([name, value]) => ({ name, value }));
    return { cookies: [], origins: [{ origin: server.url, localStorage }] };
  };
  return (who) => {
    const key = `${who.name}\n${who.password}`;
    const cached = cache.get(key);
    if (cached && Date.now() - cached.at < SESSION_REUSE_MS) return cached.state;
    const state = signInByApi(who);
    cache.set(key, { at: Date.now(), state });
    state.catch(() => cache.delete(key));
    return state;
  };
}

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per vitest worker, launched by the first harness that needs it and shared by the
 * files the worker runs one after another (the e2e project does not isolate files, so this module
 * lives as long as the worker). Each harness opens its own contexts and closes only those. When
 * the worker exits, Playwright kills the browser it launched (its exit and signal handlers), and
 * Chromium ends by itself when its DevTools pipe to the worker closes.
 */
export function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = chromium.launch({ executablePath: chromiumPath, args: ARGS });
    shared = launching;
    const forget = () => {
      if (shared === launching) shared = undefined;
    };
    launching.then((b) => b.on('disconnected', forget), forget);
  }
  return shared;
}

let sharedServer: Promise<{ server: TestServer; made: Map<string, Promise<unknown>> }> | undefined;

/**
 * One server per worker for the files that ask for it, started by the first and never closed by
 * a file: the worker's process ends with it, and the global teardown removes the data directories
 * (in the run's scratch directory). Opening PGlite is most of a server's start (about 3 s of CPU).
 */
function workerServer() {
  sharedServer ??= (async () => {
    const dataDir = fs.mkdtempSync(path.join(inject('e2eScratch'), `worker-${process.pid}-`));
    copyPgliteTemplate(dataDir);
    const server = await startServer({ WEB_DIST: inject('webDist'), DATA_DIR: dataDir });
    return { server, made: new Map<string, Promise<unknown>>() };
  })();
  sharedServer.catch(() => (sharedServer = undefined));
  return sharedServer;
}

/**
 * The real server serving the built console, and the worker's Chromium. By default the file's own
 * server on a fresh database. With `shared`, the worker's server, which the files the worker runs
 * before and after this one use too: only for a file whose data is its own (names no other file
 * uses), that reads no landlord-wide list or count, and that neither restarts the server nor
 * changes its settings. In scale mode (DATABASE_URL), or with E2E_OWN_SERVERS=1 (to tell a leak
 * between files from a failure of the file's own), every file has its own server.
 */
export async function startHarness(opts: { shared?: boolean } = {}): Promise<Harness> {
  const shared = opts.shared && !process.env.E2E_OWN_SERVERS && inject('e2eScratch') ? await workerServer() : undefined;
  const server = shared?.server ?? (await startServer({ WEB_DIST: inject('webDist') }));
  const made = shared?.made ?? new Map<string, Promise<unknown>>();
  const browser = await sharedBrowser();
  // The contexts this harness (or its file, through `browser.newContext`) opens: every one the
  // browser has that it did not have before, as a worker runs one file at a time.
  const before = new Set(browser.contexts());
  const sessionOf = sessionCache(server);
  const pages = new Map<string, Promise<OpenPage>>();
  const harness: Harness = {
    server,
    browser,
    async newPage(opts = {}) {
      const storageState = opts.as ? await sessionOf(opts.as) : undefined;
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 1280, height: 800 },
        storageState,
      });
      const page = await context.newPage();
      // Console errors (a CSP violation, an uncaught exception) fail the test that looks at them.
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      return { context, page, errors };
    },
    async pageAs(who) {
      const key = `${who.name}\n${who.password}`;
      let open = pages.get(key);
      if (!open || (await open).page.isClosed()) {
        open = harness.newPage({ as: who }).then(async (o) => {
          await o.page.goto('/');
          await o.page.getByRole('navigation', { name: 'Main' }).waitFor();
          return o;
        });
        pages.set(key, open);
        open.catch(() => pages.delete(key));
      }
      const opened = await open;
      opened.errors.length = 0;
      return opened;
    },
    once<T>(key: string, make: () => Promise<T>) {
      if (!made.has(key)) {
        const making = make();
        made.set(key, making);
        making.catch(() => made.delete(key));
      }
      return made.get(key) as Promise<T>;
    },
    async close() {
      await Promise.all(browser.contexts().map((c) => (before.has(c) ? undefined : c.close())));
      if (!shared) await server.close();
    },
  };
  return harness;
}

/** Signs in through the login form and waits for the console's navigation. */
export async function signIn(page: Page, who: Account = ADMIN): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel(/^Username/).fill(who.name);
  await page.getByLabel(/^Password/).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
