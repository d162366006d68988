import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Where the screenshots go, to be looked at (ignored by git). */
export const SHOTS_DIR = path.resolve(import.meta.dirname, '../../.tmp/shots');

/** One rule broken somewhere on the page, with the selectors of the offending nodes. */
export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core on the page as it is now and answers the violations of impact serious or
 * critical. The server's CSP forbids inline scripts, so the source is not added as a script
 * tag: `page.evaluate` runs it through the DevTools protocol, which CSP does not govern.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  const present = await page.evaluate(() => 'axe' in window);
  if (!present) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}  ${n.html.slice(0, 160)} ${n.failureSummary ?? ''}`),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Sets the remembered scheme and tells the console, as Mantine hears a change made in another tab. Answers whether the page switched in place. */
function switchScheme(page: Page, scheme: 'light' | 'dark'): Promise<boolean> {
  return page.evaluate((s) => {
    localStorage.setItem('fleet.theme', s);
    // Mantine's localStorage manager listens for `storage` and applies the scheme (the
    // attribute at once, then a render); the sign-in page has no Mantine and does not switch.
    window.dispatchEvent(new StorageEvent('storage', { key: 'fleet.theme', newValue: s, storageArea: localStorage }));
    return document.documentElement.getAttribute('data-mantine-color-scheme') === s;
  }, scheme);
}

/**
 * Resolves once nothing on the page moves: three animation frames in a row without a running
 * transition or animation that ends (a spinner's endless one does not count), so an opening
 * modal or a colour change has finished before contrast is judged.
 */
export function settled(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let still = 0;
        const frame = () => {
          const moving = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
          still = moving ? 0 : still + 1;
          if (still >= 3) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

async function check(page: Page, name: string, scheme: 'light' | 'dark'): Promise<void> {
  await settled(page);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${scheme}.png`), fullPage: true });
  let violations = await seriousViolations(page);
  // A notice closing by itself can start to fade while axe reads the page, and axe blends its
  // opacity into the contrast. Judge once more when things are still: what persists is real.
  if (violations.length > 0) {
    await settled(page);
    violations = await seriousViolations(page);
  }
  expect(violations, `${name} (${scheme})`).toEqual([]);
}

/**
 * Reloads the current screen in light, waits for `ready`, then judges it in light and in dark:
 * no serious or critical axe violation, and `SHOTS_DIR/{name}-{scheme}.png` saved. Dark is
 * switched in place, as the user menu's toggle does, so the same screen (an open dialog, a
 * filled form) is judged in both; a page without the console (sign-in) is reloaded in dark and
 * `ready` run again. The page is left in light.
 */
export async function audit(page: Page, name: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  await page.evaluate(() => localStorage.setItem('fleet.theme', 'light'));
  await page.reload();
  await judge(page, name, ready);
}

/**
 * `audit` of the screen at `path`, opened in light by one load (rather than a `goto` and then
 * `audit`'s reload, two loads of the same screen).
 */
export async function auditAt(
  page: Page,
  path: string,
  name: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<void> {
  const onConsole = /^https?:/.test(page.url());
  if (onConsole) await page.evaluate(() => localStorage.setItem('fleet.theme', 'light'));
  await page.goto(path);
  if (!onConsole) {
    await page.evaluate(() => localStorage.setItem('fleet.theme', 'light'));
    await page.reload();
  }
  await judge(page, name, ready);
}

async function judge(page: Page, name: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await ready(page);
  await check(page, name, 'light');
  if (!(await switchScheme(page, 'dark'))) {
    await page.reload();
    await ready(page);
  }
  await check(page, name, 'dark');
  if (!(await switchScheme(page, 'light'))) await page.reload();
}
