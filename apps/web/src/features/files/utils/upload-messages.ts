import { MESSAGES } from '@fleet/shared/messages';
import { ApiError } from '@/lib/api/api-error.ts';

/** The spec's texts for files and firmware (fleet §8), word for word. */
export const FILE_TEXT = {
  uploadFailedTitle: 'File Upload Failed',
  uploadFailed: 'Failed to upload file',
  uploaded: 'File uploaded successfully!',
  firmwareUploadFailedTitle: 'Firmware upload failed',
  firmwareDeleteFailedTitle: 'Firmware deletion failed',
  unexpected: 'An unexpected error occurred',
  deleteAllFilesFailed: 'Failed to delete all files',
  deleteAllFirmwareFailed: 'Failed to delete all firmware',
  deleteFailedTitle: 'Delete Failed',
} as const;

/**
 * The message of a failed upload or deletion: 'Invalid device path format' when the server's
 * answer is about the device path (fleet §5), else the server's message, else `fallback`.
 */
export function uploadErrorText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  const said = `${error.userMessage} ${error.developerMessage} ${Object.keys(error.details ?? {}).join(' ')}`;
  if (/device_path|device path/i.test(said)) return MESSAGES.devicePath;
  if (error.isNetworkError) return error.userMessage;
  const detail = Object.values(error.details ?? {})[0]?.[0];
  if (error.userMessage === 'Invalid input' && detail) return detail;
  return error.userMessage || fallback;
}
