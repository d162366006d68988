import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanBlobs } from '../../src/domain/files/sweep-orphan-blobs.ts';
import type { BlobStore } from '../../src/storage/blob-store.ts';
import { createBlobStore } from '../../src/storage/create-blob-store.ts';
import { startS3, type TestS3 } from '../helpers/s3.ts';
import type { TestServer } from '../helpers/server.ts';
import { startForUploads, storedKeys, upload } from '../helpers/uploads.ts';

const HOUR = 60 * 60_000;

// The start-up sweep removes blobs no file or firmware record names (a crash between the blob
// and its record), and only those older than its grace period: a young one may be an upload
// another instance is still recording.
describe.each(['local', 's3'] as const)('orphan blob sweep, %s store', (mode) => {
  let s: TestServer;
  let s3: TestS3 | undefined;
  let store: BlobStore;
  let acme = '';
  let admin = '';

  beforeAll(async () => {
    if (mode === 's3') s3 = await startS3();
    let tokens: Record<string, string>;
    ({ s, acme, tokens } = await startForUploads(s3?.env));
    admin = tokens.admin!;
    store = await createBlobStore(s.config);
  });
  afterAll(async () => {
    await store?.close();
    await s?.close();
    await s3?.close();
  });

  const orphan = async () => (await store.put(Readable.from([randomBytes(1000)]), { maxBytes: 10_000 })).key;

  it('removes an old blob no record names and keeps the recorded file and firmware', async () => {
    const file = await upload(s, `/api/v1/tenant/${acme}/files`, admin, {
      fields: { level: 'entity', entity_id: acme, file_device_path: 'a.bin' },
      bytes: randomBytes(500),
      filename: 'a.bin',
    });
    const firmware = await upload(s, `/api/v1/tenant/${acme}/firmware`, admin, {
      field: 'firmware_file',
      fields: { level: 'entity', entity_id: acme, version: '9.9.9', device_type: 'CC2', description: 'test build' },
      bytes: randomBytes(500),
      filename: 'fw.bin',
    });
    expect([file.status, firmware.status]).toEqual([201, 201]);
    const recorded = await storedKeys(s, s3);
    const lost = await orphan();

    // Two hours on: everything is past the grace period; only the orphan goes.
    expect(await sweepOrphanBlobs(s.app.db, store, Date.now() + 2 * HOUR)).toBe(1);
    const left = await storedKeys(s, s3);
    expect(left).not.toContain(lost);
    expect(left.sort()).toEqual(recorded.sort());
    const listed = await s.request('GET', `/api/v1/tenant/${acme}/files?level=entity&entity_id=${acme}`, {
      token: admin,
    });
    expect(listed.status).toBe(200);
  });

  it('keeps an orphan younger than the grace period', async () => {
    const young = await orphan();
    expect(await sweepOrphanBlobs(s.app.db, store)).toBe(0);
    expect(await storedKeys(s, s3)).toContain(young);
    // The same blob, once old enough, goes.
    expect(await sweepOrphanBlobs(s.app.db, store, Date.now() + 2 * HOUR)).toBe(1);
    expect(await storedKeys(s, s3)).not.toContain(young);
  });
});
