// @ts-check
// `npm run restore <file>`: a backup archive into an empty DATA_DIR (docs/operations.md "Backups").
// Plain JavaScript, so it runs without a build.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { BACKUP_FORMAT, MANIFEST, entryDigest } from './manifest.js';
import { readTar } from './tar.js';

/** A restore that cannot go ahead; its message says why, for the operator. */
export class RestoreRefused extends Error {}

/** Where an archive entry may go: the database, the blobs, the signing secret. */
const ALLOWED = /^(pgdata(\/[A-Za-z0-9_.-]+)*|blobs(\/[0-9a-f]{2}(\/[0-9a-f-]{36})?)?|jwt-secret)\/?$/;

/** @param {string} dir */
async function isEmptyOrAbsent(dir) {
  const names = await fs.readdir(dir).catch((/** @type {NodeJS.ErrnoException} */ err) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return names.length === 0;
}

/**
 * Unpacks `file` into `dataDir`, which must be empty or absent. Everything is checked (the gzip
 * stream, each entry, the manifest's digest, its format and migrations) in a folder beside
 * `dataDir` before it moves in; on any failure nothing is left behind. The server migrates the
 * database when it next starts on `dataDir`.
 * @param {string} file
 * @param {string} dataDir
 * @param {{ migrationsFolder: string }} opts
 * @returns {Promise<import('./manifest.js').BackupManifest>}
 */
export async function restoreBackup(file, dataDir, opts) {
  dataDir = path.resolve(dataDir);
  if (!(await isEmptyOrAbsent(dataDir))) {
    throw new RestoreRefused(`${dataDir} is not empty: a backup is restored only into an empty data directory`);
  }
  await fs.access(file).catch(() => {
    throw new RestoreRefused(`${file}: no such file`);
  });
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const staging = await fs.mkdtemp(path.join(path.dirname(dataDir), `.${path.basename(dataDir)}.restoring-`));
  try {
    const digest = createHash('sha256');
    /** @type {import('./manifest.js').BackupManifest | undefined} */
    let manifest;
    // gzip (npm run backup), or brotli (the upgrade fixture): told apart by gzip's magic bytes.
    const head = Buffer.alloc(2);
    const handle = await fs.open(file, 'r');
    await handle.read(head, 0, 2, 0).finally(() => handle.close());
    const gzip = head[0] === 0x1f && head[1] === 0x8b;
    try {
      for await (const e of readTar(createReadStream(file).pipe(gzip ? createGunzip() : createBrotliDecompress()))) {
        if (manifest) throw new Error('entries after the manifest');
        if (e.name === MANIFEST) {
          manifest = JSON.parse(e.data.toString('utf8'));
          continue;
        }
        if (e.type === 'other' || !ALLOWED.test(e.name) || e.name.includes('..')) {
          throw new Error(`an unexpected entry ${JSON.stringify(e.name)}`);
        }
        entryDigest(digest, e.name, e.data);
        const target = path.join(staging, e.name);
        if (e.type === 'dir') await fs.mkdir(target, { recursive: true, mode: 0o700 });
        else {
          await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
          await fs.writeFile(target, e.data, { mode: 0o600 });
        }
      }
    } catch (err) {
      const why = /** @type {Error} */ (err).message;
      throw new RestoreRefused(`${file} is not a readable Fleet Console backup (damaged or truncated): ${why}`);
    }
    if (!manifest) throw new RestoreRefused(`${file} has no manifest: it is truncated or not a Fleet Console backup`);
    if (manifest.format !== BACKUP_FORMAT || manifest.app !== 'fleet-console') {
      throw new RestoreRefused(`${file} is a backup of format ${manifest.format}; this release reads ${BACKUP_FORMAT}`);
    }
    if (digest.digest('hex') !== manifest.sha256) {
      throw new RestoreRefused(`${file} is damaged: its content does not match its manifest`);
    }
    const journal = JSON.parse(await fs.readFile(path.join(opts.migrationsFolder, 'meta', '_journal.json'), 'utf8'));
    if (manifest.migrations.count > journal.entries.length) {
      throw new RestoreRefused(
        `${file} comes from a newer release (${manifest.migrations.count} migrations; this one knows ${journal.entries.length}): restore it with that release or a later one`,
      );
    }
    await fs.mkdir(path.join(staging, 'pgdata'), { recursive: true, mode: 0o700 });
    await fs.mkdir(path.join(staging, 'blobs'), { recursive: true, mode: 0o700 });
    // Into place: the whole folder, or its entries when DATA_DIR stays (a mount point, say).
    await fs.rmdir(dataDir).catch(() => undefined);
    const moved = await fs.rename(staging, dataDir).then(
      () => true,
      () => false,
    );
    if (!moved)
      for (const name of await fs.readdir(staging)) await fs.rename(path.join(staging, name), path.join(dataDir, name));
    await fs.chmod(dataDir, 0o700);
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
