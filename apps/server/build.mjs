// @ts-check
// Bundles the server into dist/main.js. Workspace sources (@fleet/shared, TypeScript) are
// bundled in; every npm dependency stays external and is loaded from node_modules.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFingerprint, usableTemplate } from './src/db/pgdata-template.js';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@fleet/'));

// Chunks are content-hashed: drop the previous build's files (the database template stays).
for (const name of fs.existsSync('dist') ? fs.readdirSync('dist') : []) {
  if (/\.js(\.map)?$/.test(name)) fs.rmSync(path.join('dist', name));
}

await build({
  // The embedded database's worker thread is loaded from beside main.js (src/db/pglite-thread.ts).
  entryPoints: [
    { in: 'src/main.ts', out: 'main' },
    { in: 'src/kiosk-manager/main.ts', out: 'kiosk-manager' },
    { in: 'src/demo/history-main.ts', out: 'demo-history' },
    { in: 'src/db/pglite-worker.js', out: 'pglite-worker' },
  ],
  outdir: 'dist',
  // main.js loads little before it starts the database; the rest comes in chunks (src/main.ts).
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  // Stack traces map to the sources by the mappings alone; their text in the map stayed in every
  // server's memory (--enable-source-maps keeps each map it reads): bench/notes/server-memory.md.
  sourcesContent: false,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
console.log('server built: apps/server/dist/main.js, dist/pglite-worker.js');

// A migrated PGlite data directory beside the bundle: a first start copies it instead of running
// initdb (src/db/pgdata-template.js). Made again only when the migrations changed.
const here = import.meta.dirname;
const templateDir = path.join(here, 'dist/pgdata-template');
const migrations = path.join(here, 'drizzle');
if (usableTemplate(templateDir, migrations) === undefined) {
  fs.rmSync(templateDir, { recursive: true, force: true });
  fs.mkdirSync(path.join(templateDir, 'pgdata'), { recursive: true });
  const db = await PGlite.create(path.join(templateDir, 'pgdata'), { extensions: { pg_trgm, btree_gin } });
  await migrate(drizzle(db), { migrationsFolder: migrations });
  await db.close();
  fs.writeFileSync(path.join(templateDir, 'fingerprint'), `${migrationsFingerprint(migrations)}\n`);
  console.log('database template made: apps/server/dist/pgdata-template');
}
