import { z } from 'zod';
import { DEFAULT_FIRMWARE_DEVICE_TYPE, DEVICE_TYPES } from '../constants.ts';
import { MESSAGES } from '../validation.ts';

/**
 * Files and firmware (fleet §3, §5, §7): uploaded at the level of the entity, a site or a group.
 * Each level names its target with its own field (`entity_id`, `site_id`, `group_id`), as the
 * spec's multipart uploads and lists do.
 */
export const FILE_LEVELS = ['entity', 'site', 'group'] as const;
export type FileLevel = (typeof FILE_LEVELS)[number];
export const TARGET_FIELDS = { entity: 'entity_id', site: 'site_id', group: 'group_id' } as const satisfies Record<
  FileLevel,
  string
>;

/** The multipart field that carries the bytes: `file` for files, `firmware_file` for firmware. */
export const FILE_FIELD = 'file';
export const FIRMWARE_FIELD = 'firmware_file';

/**
 * Where the device stores a file: a relative path of plain segments (letters, digits, `.`, `_`,
 * `-`), at most 255 characters; no `..`, no leading `/`, no empty segment. A bad one answers
 * MESSAGES.devicePath ('Invalid device path format').
 */
export const DEVICE_PATH = /^(?!.*(?:^|\/)\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;
export const filePath = () => z.string().trim().max(255, MESSAGES.devicePath).regex(DEVICE_PATH, MESSAGES.devicePath);

/**
 * A client's file name, kept for display only (never a path): no separators, no `..`, no control
 * characters, at most 255 characters.
 */
// eslint-disable-next-line no-control-regex
export const FILENAME = /^(?!\.{1,2}$)[^/\\\u0000-\u001f\u007f]{1,255}$/;
export const INVALID_FILENAME = 'The file name may not contain path separators or control characters';

/** A device type as a caller writes it: CC1 or CC2 in any case (the spec sends CC2 and cc2). */
export const deviceType = () =>
  z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(DEVICE_TYPES, { error: `Unknown device type: one of ${DEVICE_TYPES.join(', ')}` }));

export const FileRecordSchema = z.object({
  id: z.uuid(),
  level: z.enum(FILE_LEVELS),
  target: z.string(),
  filename: z.string(),
  file_device_path: z.string().nullable(),
  upload_date: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
});
export type FileRecord = z.infer<typeof FileRecordSchema>;

export const FirmwareRecordSchema = z.object({
  id: z.uuid(),
  level: z.enum(FILE_LEVELS),
  target: z.string(),
  version: z.string(),
  device_type: z.enum(DEVICE_TYPES),
  filename: z.string(),
  release_date: z.string(),
  description: z.string(),
  size_bytes: z.number().int(),
  sha256: z.string(),
});
export type FirmwareRecord = z.infer<typeof FirmwareRecordSchema>;

/** A firmware version: what a device reports as `fw_version` (1 to 32 printable characters). */
export const firmwareVersion = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(32, 'At most 32 characters')
    .regex(/^[A-Za-z0-9._+-]+$/, 'Letters, digits and . _ + - only');

/** The text fields of a file upload, besides the target field of its level. */
export const FileUploadFieldsSchema = z.object({
  level: z.enum(FILE_LEVELS),
  file_device_path: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v))
    .pipe(filePath().optional()),
});

/** The text fields of a firmware upload, besides the target field of its level. */
export const FirmwareUploadFieldsSchema = z.object({
  level: z.enum(FILE_LEVELS),
  version: firmwareVersion(),
  device_type: deviceType().default(DEFAULT_FIRMWARE_DEVICE_TYPE),
  description: z.string().trim().max(1000, 'At most 1000 characters').default(''),
});

const targetQuery = {
  level: z.enum(FILE_LEVELS),
  entity_id: z.string().min(1).max(128).optional(),
  site_id: z.string().min(1).max(128).optional(),
  group_id: z.string().min(1).max(128).optional(),
};

/** GET and DELETE-all of files: the level and its target field. */
export const FileTargetQuerySchema = z.object(targetQuery);
export type FileTargetQuery = z.infer<typeof FileTargetQuerySchema>;

/** GET of firmware: optionally one device type; DELETE-all of firmware: the device type is required. */
export const FirmwareListQuerySchema = z.object({ ...targetQuery, device_type: deviceType().optional() });
export const FirmwareDeleteAllQuerySchema = z.object({ ...targetQuery, device_type: deviceType() });

/** List answers carry a `files` array (fleet §7), firmware lists too. */
export const FileListSchema = z.object({ files: z.array(FileRecordSchema), total: z.number().int() });
export const FirmwareListSchema = z.object({ files: z.array(FirmwareRecordSchema), total: z.number().int() });
