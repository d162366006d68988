import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { createLocalBlobStore } from './local-blob-store.ts';

/**
 * S3 when S3_ENDPOINT and S3_BUCKET are set (config checks the keys come with them), else DATA_DIR/blobs.
 * The S3 client is loaded only then: a server without S3 does not carry the AWS SDK in its memory.
 */
export async function createBlobStore(config: Config): Promise<BlobStore> {
  if (config.S3_ENDPOINT && config.S3_BUCKET) {
    const { createS3BlobStore } = await import('./s3-blob-store.ts');
    return createS3BlobStore({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      region: config.S3_REGION,
    });
  }
  return createLocalBlobStore(path.join(config.dataDir, 'blobs'));
}
