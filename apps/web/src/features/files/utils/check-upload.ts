import { fileTooBig } from '@fleet/shared/constants';
import { DEVICE_PATH } from '@fleet/shared/schemas/files';
import { MESSAGES } from '@fleet/shared/messages';

/** Why a chosen file cannot be uploaded before it is sent (fleet §5), or null. */
export function fileProblem(file: File | null, limit: number): string | null {
  if (!file) return 'Choose a file';
  if (file.size > limit) return fileTooBig(limit);
  if (file.size === 0) return 'The file is empty';
  return null;
}

/** The device path's problem, or null: optional, relative, plain segments (fleet §5). */
export function devicePathProblem(path: string): string | null {
  const p = path.trim();
  if (p === '') return null;
  return p.length <= 255 && DEVICE_PATH.test(p) ? null : MESSAGES.devicePath;
}
