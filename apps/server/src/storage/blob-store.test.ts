import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/helpers/s3.ts';
import { BlobTooLarge, type BlobStore } from './blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';
import { createS3BlobStore } from './s3-blob-store.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** A stream of `bytes` in 64 KiB chunks that fails after `failAfter` bytes when given. */
function source(bytes: Buffer, failAfter?: number) {
  return Readable.from(
    (async function* () {
      for (let i = 0; i < bytes.length; i += 65_536) {
        if (failAfter !== undefined && i >= failAfter) throw new Error('connection reset');
        yield bytes.subarray(i, i + 65_536);
      }
    })(),
  );
}
const all = async (store: BlobStore) => {
  const keys: string[] = [];
  for await (const b of store.list()) keys.push(b.key);
  return keys;
};

let dir = '';
let s3: TestS3;
const stores: Array<[string, () => BlobStore]> = [];
let local: BlobStore;
let remote: BlobStore;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-blobs-'));
  local = await createLocalBlobStore(dir);
  s3 = await startS3();
  remote = createS3BlobStore({
    endpoint: s3.env.S3_ENDPOINT!,
    bucket: s3.env.S3_BUCKET!,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
  });
});
afterAll(async () => {
  await remote?.close();
  await s3?.close();
  await fs.rm(dir, { recursive: true, force: true });
});
stores.push(['local disk', () => local], ['S3 (s3rver)', () => remote]);

describe.each(stores)('%s blob store', (_name, store) => {
  it('stores a streamed blob whole, hashed on the way, and reads it back and by range', async () => {
    const bytes = randomBytes(6 * 1024 * 1024 + 123); // past one 5 MiB multipart part
    const blob = await store().put(source(bytes), { maxBytes: 10_000_000 });
    expect(blob.size).toBe(bytes.length);
    expect(blob.sha256).toBe(sha(bytes));
    const back = Buffer.concat(await (await store().read(blob.key)).toArray());
    expect(sha(back)).toBe(sha(bytes));
    const part = Buffer.concat(await (await store().read(blob.key, { start: 10, end: 19 })).toArray());
    expect(part).toEqual(bytes.subarray(10, 20));
    expect(await all(store())).toContain(blob.key);
    await store().delete(blob.key);
    expect(await all(store())).not.toContain(blob.key);
    await store().delete(blob.key); // twice is fine
  });

  it('refuses a stream past its limit and keeps nothing of it', async () => {
    const before = await all(store());
    const put = store().put(source(randomBytes(1_000_001)), { maxBytes: 1_000_000 });
    await expect(put).rejects.toBeInstanceOf(BlobTooLarge);
    expect(await all(store())).toEqual(before);
  });

  it('keeps nothing of a source that breaks off midway', async () => {
    const before = await all(store());
    await expect(store().put(source(randomBytes(300_000), 131_072), { maxBytes: 1e7 })).rejects.toThrow(
      'connection reset',
    );
    expect(await all(store())).toEqual(before);
  });

  it('stores exactly the bytes of a small text', async () => {
    const blob = await store().put(Readable.from([Buffer.from('hello')]), { maxBytes: 5 });
    expect(await text(await store().read(blob.key))).toBe('hello');
    await store().delete(blob.key);
  });
});

describe('local blob store', () => {
  it('never reads or deletes outside its folder, whatever the key', async () => {
    await expect(local.read('../../etc/passwd')).rejects.toThrow('Not a blob key');
    await expect(local.delete('/etc/passwd')).rejects.toThrow('Not a blob key');
  });

  it('drops half-written temporaries of a crashed process at start', async () => {
    await fs.writeFile(path.join(dir, 'tmp', 'half'), 'partial');
    await createLocalBlobStore(dir);
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
  });
});
