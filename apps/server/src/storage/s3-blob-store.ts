import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobStore, ByteRange, StoredBlob } from './blob-store.ts';
import { HashingMeter } from './hashing-meter.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** Keys live under this prefix (`blobs/`), so the bucket can hold other things. */
  prefix?: string;
}

/**
 * Blobs in S3-compatible object storage. Uploads go through lib-storage's multipart `Upload`
 * (the length is unknown while streaming); a failed or oversize upload is aborted, so no object
 * appears. Checksums only when required: the SDK's default trailer checksums corrupt streamed
 * bodies on servers that do not speak them (dependency-notes.md).
 */
export function createS3BlobStore(s: S3Settings): BlobStore {
  const client = new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const prefix = s.prefix ?? 'blobs/';
  const Bucket = s.bucket;

  return {
    kind: 's3',
    async put(source, { maxBytes }): Promise<StoredBlob> {
      const key = randomUUID();
      const meter = new HashingMeter(maxBytes);
      const body = new PassThrough();
      const upload = new Upload({
        client,
        params: { Bucket, Key: prefix + key, Body: body, ContentType: 'application/octet-stream' },
        leavePartsOnError: false,
      });
      const uploaded = upload.done();
      // The upload's own failure must not go unhandled while the pipeline is still running.
      uploaded.catch(() => {});
      try {
        await pipeline(source, meter, body);
        await uploaded;
      } catch (err) {
        source.resume();
        await upload.abort().catch(() => {});
        // A multipart upload that completed before the failure was seen is removed too.
        await client.send(new DeleteObjectCommand({ Bucket, Key: prefix + key })).catch(() => {});
        throw err;
      }
      return { key, size: meter.size, sha256: meter.digest() };
    },
    async read(key: string, range?: ByteRange) {
      const out = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: prefix + key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body as Readable;
    },
    async delete(key: string) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: prefix + key }));
    },
    async *list() {
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) {
          if (o.Key) yield { key: o.Key.slice(prefix.length), modified: o.LastModified ?? new Date() };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async close() {
      client.destroy();
    },
  };
}
