import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { DbSnapshot } from '../db/pglite-thread.ts';
import { PRIVATE_FILE_MODE } from '../lib/private-files.ts';
import type { LocalBlobStore } from '../storage/local-blob-store.ts';
import { BACKUP_FORMAT, MANIFEST, type BackupManifest, entryDigest } from './manifest.js';
import { TAR_END, tarHeader, tarPadding } from './tar.js';

export interface BackupSources {
  snapshot: () => Promise<DbSnapshot>;
  blobs: LocalBlobStore;
  dataDir: string;
  version: string;
  /** The migration journal's tags, in order, to name the last migration the backup holds. */
  migrationTags: string[];
  now?: () => Date;
  /**
   * gzip (the default: fast), or brotli at its best (about 3× smaller than gzip on a small
   * database and 15× slower: for the committed upgrade fixture). The restore reads either.
   */
  compression?: 'gzip' | 'brotli';
}

const compressor = (kind: BackupSources['compression']) =>
  kind === 'brotli'
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 } })
    : createGzip();

/**
 * Writes one archive (tar.gz, 0600) to `out` while the server runs: the database's snapshot,
 * `jwt-secret`, then every blob, and last `manifest.json` with the counts and a digest of all the
 * rest. Blob deletes wait until the blobs are copied, so every blob a row of the snapshot names
 * is in the archive; blobs written after the snapshot may be too (the orphan sweep removes them
 * after a restore). Written beside `out` first and renamed, so `out` is complete or absent.
 */
export async function writeBackup(src: BackupSources, out: string): Promise<BackupManifest> {
  const release = src.blobs.holdDeletes();
  const partial = `${out}.partial`;
  let snapDir: string | undefined;
  try {
    const snap = await src.snapshot();
    snapDir = snap.dir;
    const createdAt = (src.now?.() ?? new Date()).toISOString();
    const digest = createHash('sha256');
    const sizes = { database: 0, blobs: 0, blobCount: 0 };
    const entries = async function* (): AsyncGenerator<Buffer> {
      const entry = (name: string, data: Buffer, type: 'file' | 'dir' = 'file') => {
        entryDigest(digest, name, data);
        const mode = type === 'dir' ? 0o700 : PRIVATE_FILE_MODE;
        return Buffer.concat([tarHeader({ name, size: data.length, type, mode }), data, tarPadding(data.length)]);
      };
      for await (const e of walk(snap.dir, 'pgdata')) {
        sizes.database += e.data.length;
        yield entry(e.name, e.data, e.type);
      }
      const secret = await fs.readFile(path.join(src.dataDir, 'jwt-secret')).catch(() => undefined);
      if (secret) yield entry('jwt-secret', secret);
      for (const dir of (await fs.readdir(src.blobs.root)).sort()) {
        if (dir === 'tmp' || dir.length !== 2) continue;
        for (const key of (await fs.readdir(path.join(src.blobs.root, dir))).sort()) {
          const data = await fs.readFile(path.join(src.blobs.root, dir, key)).catch(() => undefined);
          if (!data) continue;
          sizes.blobs += data.length;
          sizes.blobCount++;
          yield entry(`blobs/${dir}/${key}`, data);
        }
      }
      const rows = { ...snap.rows };
      const migrations = rows['drizzle.__drizzle_migrations'] ?? 0;
      delete rows['drizzle.__drizzle_migrations'];
      const m: BackupManifest = {
        format: BACKUP_FORMAT,
        app: 'fleet-console',
        version: src.version,
        createdAt,
        migrations: { count: migrations, last: src.migrationTags[migrations - 1] ?? null },
        rows,
        sizes,
        sha256: digest.digest('hex'),
      };
      result = m;
      const json = Buffer.from(JSON.stringify(m, null, 2) + '\n');
      yield Buffer.concat([
        tarHeader({ name: MANIFEST, size: json.length, type: 'file', mode: PRIVATE_FILE_MODE }),
        json,
      ]);
      yield tarPadding(json.length);
      yield TAR_END;
    };
    let result: BackupManifest | undefined;
    await fs.rm(partial, { force: true });
    await pipeline(
      Readable.from(entries()),
      compressor(src.compression),
      createWriteStream(partial, { flags: 'wx', mode: PRIVATE_FILE_MODE }),
    );
    await fs.rename(partial, out);
    return result!;
  } catch (err) {
    await fs.rm(partial, { force: true });
    throw err;
  } finally {
    if (snapDir) await fs.rm(snapDir, { recursive: true, force: true });
    await release();
  }
}

/** A directory's tree, depth first in name order: `name` for the directory, then its contents. */
async function* walk(dir: string, name: string): AsyncGenerator<{ name: string; data: Buffer; type: 'file' | 'dir' }> {
  yield { name, data: Buffer.alloc(0), type: 'dir' };
  for (const e of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const inner = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(inner, `${name}/${e.name}`);
    else if (e.isFile()) yield { name: `${name}/${e.name}`, data: await fs.readFile(inner), type: 'file' };
  }
}
