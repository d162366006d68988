import type { FileRecord, FirmwareRecord } from '@fleet/shared/schemas/files';
import type { files, firmware } from '../../db/schema.ts';

/** A file row as the API answers it (never its blob key). */
export function presentFile(row: typeof files.$inferSelect): FileRecord {
  return {
    id: row.id,
    level: row.level,
    target: row.target,
    filename: row.filename,
    file_device_path: row.file_device_path,
    upload_date: new Date(row.upload_date).toISOString(),
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
  };
}

/** A firmware row as the API answers it (never its blob key). */
export function presentFirmware(row: typeof firmware.$inferSelect): FirmwareRecord {
  return {
    id: row.id,
    level: row.level,
    target: row.target,
    version: row.version,
    device_type: row.device_type,
    filename: row.filename,
    release_date: new Date(row.release_date).toISOString(),
    description: row.description,
    size_bytes: Number(row.size_bytes),
    sha256: row.sha256,
  };
}
