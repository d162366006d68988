import { ApiError } from '@/lib/api/api-error.ts';

export const WRONG_PASSWORD = 'Wrong password';

/**
 * What the login form says about a failed sign-in (core §8): 401/403 'Wrong password',
 * otherwise the server's user message. Null when a notice has already told the user.
 */
export function loginErrorMessage(error: unknown): string | null {
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return error.notified ? null : WRONG_PASSWORD;
    return error.notified ? null : error.userMessage;
  }
  return 'Sign-in failed. Please try again.';
}
