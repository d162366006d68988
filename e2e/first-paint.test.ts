import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, chromiumPath, startHarness, type Harness } from './helpers/browser.ts';

// /auth/login arrives prerendered (apps/web/scripts/prerender.mjs) and paints before the console's
// scripts load; these check what a visitor can do on it in that time, and that nothing is lost.
let h: Harness;
beforeAll(async () => {
  if (chromiumPath) h = await startHarness({ shared: true });
});
afterAll(async () => h?.close());

/** Holds the console's main chunk until `release()`, as a slow link would. */
function holdConsoleScript() {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release: () => release() };
}

describe.skipIf(!chromiumPath)('the prerendered sign-in page', () => {
  it('shows the form before the console loads, and keeps what was typed and the submit', async () => {
    const { page, context, errors } = await h.newPage();
    const held = holdConsoleScript();
    await page.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
      await held.gate;
      await route.continue();
    });
    const urls: string[] = [];
    page.on('framenavigated', (frame) => urls.push(frame.url()));
    await page.goto('/auth/login', { waitUntil: 'domcontentloaded' });
    // Typed and submitted on the prerendered page, while the console is still on its way.
    await page.getByLabel(/^Username/).fill(ADMIN.name);
    await page.getByLabel(/^Password/).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    held.release();
    // The console takes over with both fields as typed and signs in.
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/entity');
    // The held submit never became a plain form post or a URL with the password in it.
    expect(urls.some((u) => u.includes(ADMIN.password) || u.includes('password='))).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the focus and text of a field being typed into when the console takes over', async () => {
    const { page, context } = await h.newPage();
    const held = holdConsoleScript();
    await page.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
      await held.gate;
      await route.continue();
    });
    await page.goto('/auth/login', { waitUntil: 'domcontentloaded' });
    await page.getByLabel(/^Password/).fill('half-typ');
    held.release();
    // The live form is in place once its inputs carry React's handlers; the draft is kept.
    await expect.poll(() => page.getByLabel(/^Password/).inputValue()).toBe('half-typ');
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'password');
    await page.keyboard.type('ed');
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('half-typed');
    await context.close();
  });

  it('paints in the remembered dark scheme without any script, and in light by default', async () => {
    for (const scheme of ['dark', 'light'] as const) {
      const { page, context } = await h.newPage();
      if (scheme === 'dark') {
        await context.addCookies([{ name: 'fleet-theme', value: 'dark', url: h.server.url }]);
      }
      await page.route(/\.js$/, (route) => route.abort());
      await page.goto('/auth/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
      const background = await page.evaluate(
        () => getComputedStyle(document.querySelector('#root > div')!).backgroundColor,
      );
      // dark-8 is rgb(31, 31, 31); gray-0 is rgb(248, 249, 250).
      expect(background).toBe(scheme === 'dark' ? 'rgb(31, 31, 31)' : 'rgb(248, 249, 250)');
      await context.close();
    }
  });

  it('remembers the Dark Mode choice in the cookie the server reads', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/auth/login');
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'dark'));
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'fleet-theme')?.value).toBe('dark');
    await context.close();
  });
});
