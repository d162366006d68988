import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalBlobStore } from '../storage/local-blob-store.ts';
import { TAR_END, readTar, tarHeader, tarPadding } from './tar.js';
import { writeBackup } from './write-backup.ts';

const dirs: string[] = [];
const tmp = async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-backup-unit-'));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('backup archive', () => {
  it('reads back what it wrote, long names included, in chunks of any size', async () => {
    const long = `pgdata/${'a'.repeat(90)}/${'b'.repeat(60)}`;
    const parts = [
      tarHeader({ name: 'pgdata', size: 0, type: 'dir', mode: 0o700 }),
      tarHeader({ name: long, size: 3, type: 'file', mode: 0o600 }),
      Buffer.from('abc'),
      tarPadding(3),
      TAR_END,
    ];
    const whole = Buffer.concat(parts);
    const inSevens = Array.from({ length: Math.ceil(whole.length / 7) }, (_, i) => whole.subarray(i * 7, i * 7 + 7));
    const entries = [];
    for await (const e of readTar(inSevens)) entries.push({ name: e.name, type: e.type, data: e.data.toString() });
    expect(entries).toEqual([
      { name: 'pgdata', type: 'dir', data: '' },
      { name: long, type: 'file', data: 'abc' },
    ]);
    await expect(async () => {
      for await (const _ of readTar([whole.subarray(0, 700)])) void _;
    }).rejects.toThrow(/truncated/);
  });

  it('holds blob deletes from before the database snapshot until the blobs are copied', async () => {
    const dataDir = await tmp();
    const blobs = await createLocalBlobStore(path.join(dataDir, 'blobs'));
    const { key } = await blobs.put(Readable.from([Buffer.from('firmware')]), { maxBytes: 100 });
    const file = path.join(dataDir, 'blobs', key.slice(0, 2), key);
    const copy = path.join(dataDir, 'pgdata.snapshot');
    await fs.mkdir(path.join(copy, 'base'), { recursive: true });
    await fs.writeFile(path.join(copy, 'base', 'PG_VERSION'), '17\n');
    // The file's row is deleted (and its blob removal asked for) right after the snapshot.
    const snapshot = async () => {
      await blobs.delete(key);
      return { dir: copy, rows: {} };
    };
    const out = path.join(dataDir, 'backup.tar.gz');
    const m = await writeBackup({ snapshot, blobs, dataDir, version: '0.1.0', migrationTags: [] }, out);
    expect(m.sizes.blobCount).toBe(1);
    expect(m.sizes.database).toBe(3);
    // Once the backup is written, the held delete happens, and the database's copy is gone.
    expect(existsSync(file)).toBe(false);
    expect(existsSync(copy)).toBe(false);
  });
});
