import type { Readable } from 'node:stream';
import { FILENAME, INVALID_FILENAME } from '@fleet/shared/schemas/files';
import { fileTooBig } from '@fleet/shared/constants';
import { HttpError, invalidField } from '../../lib/http-error.ts';
import { unstorableText } from '../../lib/unstorable.ts';
import { BlobTooLarge, type BlobStore, type StoredBlob } from '../../storage/blob-store.ts';

/** One part of a multipart body, as @fastify/multipart yields it (only what is read here). */
export type FormPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; fieldname: string; filename: string; file: Readable & { truncated?: boolean } };

/** An upload whose bytes are in the store: its text fields, the client's file name, the blob. */
export interface UploadForm {
  fields: Record<string, string>;
  filename: string;
  blob: StoredBlob;
}

/**
 * Reads a multipart upload part by part in any order: the one file (under `fileField`) streams
 * into the store, hashed on the way; text fields are collected. Nothing is buffered whole.
 * On any failure (wrong field, second file, oversize, empty, a body cut short) the blob is
 * removed before the error goes up, so nothing half-written survives.
 */
export async function readUploadForm(
  parts: AsyncIterable<FormPart>,
  o: { blobs: BlobStore; fileField: string; maxBytes: number; complete: () => boolean },
): Promise<UploadForm> {
  const fields: Record<string, string> = {};
  let upload: { blob: StoredBlob; filename: string } | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        // Text a database cannot store is refused here, as the JSON parser refuses it (plugins/edge.ts).
        if (typeof part.value === 'string' && part.value.includes('\u0000')) throw unstorableText(part.fieldname);
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== o.fileField || upload) {
        part.file.resume();
        throw invalidField(
          part.fieldname,
          upload ? 'Only one file per upload' : `The file goes in the field '${o.fileField}'`,
        );
      }
      const filename = part.filename;
      if (!FILENAME.test(filename)) {
        part.file.resume();
        throw invalidField(o.fileField, INVALID_FILENAME);
      }
      const blob = await o.blobs.put(part.file, { maxBytes: o.maxBytes });
      upload = { blob, filename };
      // The multipart parser cuts a stream at its limit without an error: check after the pipeline.
      if (part.file.truncated) throw new BlobTooLarge(o.maxBytes);
    }
    // A connection that dropped can end the parts quietly: only a body received whole counts.
    if (!o.complete()) throw new HttpError(400, 'The upload was incomplete', 'The request body ended early');
    if (!upload) throw invalidField(o.fileField, 'A file is required');
    if (upload.blob.size === 0) throw invalidField(o.fileField, 'The file is empty');
    return { fields, ...upload };
  } catch (err) {
    if (upload) await o.blobs.delete(upload.blob.key);
    if (err instanceof BlobTooLarge) throw tooBig(err.maxBytes);
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw invalidField(o.fileField, 'Only one file per upload');
    if (typeof code === 'string' && code.startsWith('FST_'))
      throw new HttpError(400, 'Invalid upload', (err as Error).message);
    const message = (err as Error).message ?? String(err);
    // A body that ended early or broke off: the client is gone or sent a malformed form.
    if (/unexpected end|aborted|premature|malformed|terminated|boundary|ECONNRESET/i.test(message + code))
      throw new HttpError(400, 'The upload was incomplete', message);
    throw new HttpError(503, 'The file store is unavailable; try again', message);
  }
}

/** 413 with the spec's over-limit message (fleet §5). */
export const tooBig = (maxBytes: number) => new HttpError(413, fileTooBig(maxBytes), fileTooBig(maxBytes));

/** Runs `record`; if it fails, the blob it would have recorded is removed before the error goes up. */
export async function keepOrDiscard<T>(blobs: BlobStore, blob: StoredBlob, record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (err) {
    await blobs.delete(blob.key).catch(() => {});
    throw err;
  }
}
