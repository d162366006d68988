import type { z } from 'zod';
import { MESSAGES } from '@fleet/shared/messages';
import { HttpError } from '../../lib/http-error.ts';

/**
 * The text fields of an upload checked against `schema`. A bad device path answers the message
 * the console shows ('Invalid device path format') and names `file_device_path` for the developer.
 */
export function parseUploadFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.infer<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const details: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (details[issue.path.join('.') || '_'] ??= []).push(issue.message);
  if (details.file_device_path) {
    throw new HttpError(400, MESSAGES.devicePath, `file_device_path: ${details.file_device_path.join('; ')}`, details);
  }
  throw new HttpError(400, 'Invalid input', 'The upload fields do not match the schema', details);
}
