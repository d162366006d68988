import { ApiError } from '@/lib/api/api-error.ts';

/**
 * One line saying why a call failed, for per-row reports: the server's user message and its
 * field details (without repeating the same text), the network error, or the error's message.
 */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    const details = [...new Set(Object.values(error.details ?? {}).flat())].filter((m) => m !== error.userMessage);
    return details.length > 0 ? `${error.userMessage}: ${details.join('; ')}` : error.userMessage;
  }
  return error instanceof Error ? error.message : String(error);
}
