// npm test: every tier (unit, integration, end-to-end) in one vitest run, then one plain summary
// line. `node scripts/test.mjs e2e` (or unit, integration) runs just those projects.
import fs from 'node:fs';
import path from 'node:path';
import { buildIfStale, chromiumPath, root, run } from './lib.mjs';

// The scale project needs PostgreSQL and Redis; it runs only when named (CI's scale-mode run).
const DEFAULT_PROJECTS = ['unit', 'web-unit', 'integration', 'e2e'];
const projects = process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_PROJECTS;
const wantsE2e = projects.includes('e2e');
// The end-to-end tier drives the built console; build it (and the server) when stale.
if (wantsE2e && chromiumPath()) await buildIfStale();

const report = path.join(root, '.tmp', 'vitest-report.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
fs.rmSync(report, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
for (const p of projects) args.push('--project', p);
const code = await run('npx', args);

if (fs.existsSync(report)) {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  if (wantsE2e && !chromiumPath()) {
    console.log('\nEND-TO-END TESTS WERE SKIPPED: Debian Chromium is not installed (apt-get install chromium).');
  }
  console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(code);
