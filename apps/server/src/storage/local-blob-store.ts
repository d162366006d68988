import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, ByteRange, StoredBlob } from './blob-store.ts';
import {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  isPrivateDir,
  makePrivateDir,
  restrictTree,
} from '../lib/private-files.ts';
import { HashingMeter } from './hashing-meter.ts';

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Blobs as files under `root` (DATA_DIR/blobs): written to `tmp/` first and renamed into place
 * only when complete, so a crash or an aborted upload never leaves a half blob under a key. Keys
 * are random UUIDs; a key that is not one is refused before it reaches the file system. Only the
 * server's user may read them: directories 0700, files 0600.
 */
export interface LocalBlobStore extends BlobStore {
  readonly kind: 'local';
  readonly root: string;
  /**
   * Defers every delete until the returned release is called (and awaited): a backup copies the
   * blobs after dumping the database, and a blob its rows name must still be there then.
   */
  holdDeletes(): () => Promise<void>;
}

export function isLocalBlobStore(store: BlobStore): store is LocalBlobStore {
  return 'holdDeletes' in store;
}

export async function createLocalBlobStore(root: string): Promise<LocalBlobStore> {
  const tmp = path.join(root, 'tmp');
  // Whatever a crashed process left half-written goes at start.
  await fs.rm(tmp, { recursive: true, force: true });
  // Blobs an earlier version stored readable to others are made private once: the root turns
  // 0700 last, and only this code writes under it afterwards.
  if (!(await isPrivateDir(root))) await restrictTree(root);
  await makePrivateDir(tmp);
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`Not a blob key: ${key}`);
    return path.join(root, key.slice(0, 2), key);
  };
  let holds = 0;
  const deferred = new Set<string>();

  return {
    kind: 'local',
    root,
    holdDeletes() {
      holds++;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        if (--holds > 0) return;
        const keys = [...deferred];
        deferred.clear();
        for (const key of keys) await fs.rm(fileOf(key), { force: true });
      };
    },
    async put(source: Readable, { maxBytes }): Promise<StoredBlob> {
      const key = randomUUID();
      const partial = path.join(tmp, key);
      const meter = new HashingMeter(maxBytes);
      try {
        await pipeline(source, meter, createWriteStream(partial, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
        const final = fileOf(key);
        await fs.mkdir(path.dirname(final), { recursive: true, mode: PRIVATE_DIR_MODE });
        await fs.rename(partial, final);
      } catch (err) {
        source.resume();
        await fs.rm(partial, { force: true });
        throw err;
      }
      return { key, size: meter.size, sha256: meter.digest() };
    },
    async read(key: string, range?: ByteRange) {
      const file = fileOf(key);
      // Open first so a missing blob rejects here rather than in the middle of an answer.
      const handle = await fs.open(file, 'r');
      return handle.createReadStream(range ?? {});
    },
    async delete(key: string) {
      const file = fileOf(key);
      if (holds > 0) return void deferred.add(key);
      await fs.rm(file, { force: true });
    },
    async *list() {
      for (const dir of await fs.readdir(root)) {
        if (dir === 'tmp' || dir.length !== 2) continue;
        for (const name of await fs.readdir(path.join(root, dir))) {
          if (!KEY.test(name)) continue;
          const stat = await fs.stat(path.join(root, dir, name));
          yield { key: name, modified: stat.mtime };
        }
      }
    },
    async close() {},
  };
}
