// @ts-check
// The migrated PGlite data directory the build ships (dist/pgdata-template/), so that a first
// start with an empty DATA_DIR copies it instead of running initdb. Plain JavaScript: the build
// script and the database worker both use it as is.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** A fingerprint of the migrations folder: a template made from other migrations is not used. */
export function migrationsFingerprint(/** @type {string} */ folder) {
  const hash = createHash('sha256');
  const walk = (/** @type {string} */ dir) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      if (fs.statSync(p).isDirectory()) walk(p);
      else hash.update(path.relative(folder, p)).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  };
  walk(folder);
  return hash.digest('hex');
}

/**
 * The template's data directory when one exists for exactly these migrations, else undefined.
 * @param {string} templateDir dist/pgdata-template
 * @param {string} migrationsFolder
 */
export function usableTemplate(templateDir, migrationsFolder) {
  try {
    const recorded = fs.readFileSync(path.join(templateDir, 'fingerprint'), 'utf8').trim();
    if (recorded !== migrationsFingerprint(migrationsFolder)) return undefined;
    const pgdata = path.join(templateDir, 'pgdata');
    return fs.existsSync(path.join(pgdata, 'PG_VERSION')) ? pgdata : undefined;
  } catch {
    return undefined;
  }
}
