import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { startServer, type TestServer } from '../../apps/server/test/helpers/server.ts';

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

export interface Harness {
  server: TestServer;
  browser: Browser;
  /** A fresh browser context (empty localStorage) with a page on the console. */
  newPage(): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/** The real server serving the built console, and Chromium. */
export async function startHarness(): Promise<Harness> {
  const server = await startServer({ WEB_DIST: inject('webDist') });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ARGS });
  return {
    server,
    browser,
    async newPage() {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      // Console errors (a CSP violation, an uncaught exception) fail the test that looks at them.
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      return { context, page, errors };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Signs in through the login form and waits for the console's navigation. */
export async function signIn(page: Page, who: { name: string; password: string } = ADMIN): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel(/^Username/).fill(who.name);
  await page.getByLabel(/^Password/).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
