// drizzle-kit is hoisted to the root node_modules while npm keeps drizzle-orm nested in
// apps/server, and drizzle-kit's ESM import of drizzle-orm cannot see it there. Link it for
// the duration of the run, then remove the link so the install stays as npm left it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const server = path.resolve(here, '..');
const rootLink = path.resolve(server, '../../node_modules/drizzle-orm');
const nested = path.join(server, 'node_modules/drizzle-orm');
const linked = !fs.existsSync(rootLink) && fs.existsSync(nested);
if (linked) fs.symlinkSync(nested, rootLink, 'dir');
try {
  const name = process.argv[2] ?? 'migration';
  const r = spawnSync('npx', ['drizzle-kit', 'generate', '--name', name], { cwd: server, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  if (linked) fs.unlinkSync(rootLink);
}
