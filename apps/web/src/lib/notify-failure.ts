import { ApiError } from './api/api-error.ts';
import { notifyError } from './notify.ts';

/**
 * The red notice for a failed save or action whose call was made without the client's notice
 * (core §8: the user message, the developer message below it); nothing when it was shown already.
 */
export function notifyFailure(error: unknown): void {
  if (error instanceof ApiError) {
    if (!error.notified) notifyError(error.userMessage, error.developerMessage || undefined);
    return;
  }
  notifyError(error instanceof Error ? error.message : String(error));
}
