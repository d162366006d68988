import { HttpError } from './http-error.ts';

/** How long a caller is told to wait before trying again while the server shuts down. */
export const SHUTDOWN_RETRY_AFTER_S = 5;

/** 503 in the `errorInfo` envelope with a Retry-After hint: this server is shutting down. */
export function shuttingDown(
  userMessage = 'The server is restarting. Try again in a moment.',
  developerMessage = 'The server is shutting down; another instance, or this one once restarted, answers',
): HttpError {
  return new HttpError(503, userMessage, developerMessage, undefined, {
    'retry-after': String(SHUTDOWN_RETRY_AFTER_S),
  });
}
