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

/**
 * Shows the current screen in light and then dark (the stored theme, then a reload), waits for
 * `ready`, asserts no serious or critical axe violation and saves `SHOTS_DIR/{name}-{scheme}.png`.
 * The page is left in light.
 */
export async function audit(page: Page, name: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.evaluate((s) => localStorage.setItem('fleet.theme', s), scheme);
    await page.reload();
    await ready(page);
    await page.waitForTimeout(350); // transitions settle before contrast is judged
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${scheme}.png`), fullPage: true });
    expect(await seriousViolations(page), `${name} (${scheme})`).toEqual([]);
  }
  await page.evaluate(() => localStorage.setItem('fleet.theme', 'light'));
}
