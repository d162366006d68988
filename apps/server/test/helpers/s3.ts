import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types; it is only a test double for the S3 path.
import S3rver from 's3rver';

export interface TestS3 {
  /** S3_* variables that point the server at this store. */
  env: Record<string, string>;
  /** Keys of the objects in the bucket (with the store's `blobs/` prefix removed). */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/** An S3-compatible server in this process on a free port, with one empty bucket. */
export async function startS3(): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-s3-'));
  const bucket = 'fleet-blobs';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_REGION: 'us-east-1',
    },
    async keys() {
      const res = await fetch(`http://127.0.0.1:${port}/${bucket}?list-type=2`);
      const xml = await res.text();
      return [...xml.matchAll(/<Key>blobs\/([^<]+)<\/Key>/g)].map((m) => m[1]!);
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
