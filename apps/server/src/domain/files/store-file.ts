import { randomUUID } from 'node:crypto';
import { FileUploadFieldsSchema, type FileRecord } from '@fleet/shared/schemas/files';
import type { Db } from '../../db/client.ts';
import { files } from '../../db/schema.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { resolveTarget } from './file-levels.ts';
import { uploadLimit } from './file-policy.ts';
import { presentFile } from './present.ts';
import { parseUploadFields } from './upload-fields.ts';
import { keepOrDiscard, tooBig, type UploadForm } from './upload-form.ts';

/**
 * Records an uploaded file whose blob is already in the store: checks the fields and the target,
 * then writes the row. If any of that fails the blob is removed, so a record and its blob exist
 * together or not at all.
 */
export async function storeFile(
  db: Db,
  ctx: AuditContext,
  blobs: BlobStore,
  entity: string,
  form: UploadForm,
): Promise<FileRecord> {
  return keepOrDiscard(blobs, form.blob, async () => {
    const fields = parseUploadFields(FileUploadFieldsSchema, form.fields);
    const where = await resolveTarget(db, entity, fields.level, form.fields);
    if (form.blob.size > uploadLimit(fields.level)) throw tooBig(uploadLimit(fields.level));
    const entry = { action: 'file.create', entity, target: { type: 'file', name: form.filename } } as const;
    const complete = (after: FileRecord) => ({ after });
    return audited(db, ctx, { ...entry, complete }, async (tx) => {
      const [row] = await tx
        .insert(files)
        .values({
          id: randomUUID(),
          entity,
          ...where,
          filename: form.filename,
          file_device_path: fields.file_device_path ?? null,
          size_bytes: form.blob.size,
          sha256: form.blob.sha256,
          blob_key: form.blob.key,
        })
        .returning();
      return presentFile(row!);
    });
  });
}
