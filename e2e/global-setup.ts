import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPgliteTemplate } from '../apps/server/test/global-setup.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WEB_DIST = path.resolve(import.meta.dirname, '../apps/web/dist');

/**
 * The end-to-end tier needs Debian's Chromium and the built console. Without Chromium the tests
 * are skipped, and we say so loudly rather than let a green run hide it.
 */
export default async function setup(project: TestProject) {
  const hasChromium = fs.existsSync(CHROMIUM);
  project.provide('chromium', hasChromium ? CHROMIUM : '');
  if (!hasChromium) {
    const bar = '!'.repeat(78);
    console.warn(
      `\n${bar}\n  END-TO-END TESTS SKIPPED: no Chromium at ${CHROMIUM}.\n  Install Debian's chromium (apt-get install chromium) to run them.\n${bar}\n`,
    );
    return;
  }
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('The console is not built: run `npm run build -w apps/web` (npm test does it for you).');
  }
  project.provide('webDist', WEB_DIST);
  if (!process.env.DATABASE_URL) {
    const dir = await createPgliteTemplate();
    project.provide('pgliteTemplate', dir);
    // The data directories of the workers' shared servers (helpers/browser.ts), which no file closes.
    const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fleet-e2e-'));
    project.provide('e2eScratch', scratch);
    return async () => {
      await fs.promises.rm(dir, { recursive: true, force: true });
      await fs.promises.rm(scratch, { recursive: true, force: true });
    };
  }
  project.provide('e2eScratch', '');
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: string;
    webDist: string;
    e2eScratch: string;
  }
}
