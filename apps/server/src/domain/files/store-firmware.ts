import { randomUUID } from 'node:crypto';
import { FirmwareUploadFieldsSchema, type FirmwareRecord } from '@fleet/shared/schemas/files';
import type { Db } from '../../db/client.ts';
import { firmware } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { resolveTarget } from './file-levels.ts';
import { uploadLimit } from './file-policy.ts';
import { presentFirmware } from './present.ts';
import { parseUploadFields } from './upload-fields.ts';
import { keepOrDiscard, tooBig, type UploadForm } from './upload-form.ts';

/**
 * Records an uploaded firmware image (file, version and device type) whose blob is in the store;
 * the same version of the same type at the same target is a 409. On any failure the blob goes.
 */
export async function storeFirmware(
  db: Db,
  ctx: AuditContext,
  blobs: BlobStore,
  entity: string,
  form: UploadForm,
): Promise<FirmwareRecord> {
  return keepOrDiscard(blobs, form.blob, async () => {
    const fields = parseUploadFields(FirmwareUploadFieldsSchema, form.fields);
    const where = await resolveTarget(db, entity, fields.level, form.fields);
    if (form.blob.size > uploadLimit(fields.level)) throw tooBig(uploadLimit(fields.level));
    const entry = { action: 'firmware.create', entity, target: { type: 'firmware', name: form.filename } } as const;
    const complete = (after: FirmwareRecord) => ({ after });
    return audited(db, ctx, { ...entry, complete }, async (tx) => {
      try {
        const [row] = await tx
          .insert(firmware)
          .values({
            id: randomUUID(),
            entity,
            ...where,
            filename: form.filename,
            version: fields.version,
            device_type: fields.device_type,
            description: fields.description,
            size_bytes: form.blob.size,
            sha256: form.blob.sha256,
            blob_key: form.blob.key,
          })
          .returning();
        return presentFirmware(row!);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        throw new HttpError(
          409,
          `Firmware ${fields.version} for ${fields.device_type} is already uploaded here`,
          'The same version of the same device type exists at this level and target',
          { version: ['This version is already uploaded'] },
        );
      }
    });
  });
}
