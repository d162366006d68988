import { isErrorInfo } from '@fleet/shared/guards';

/** Texts the spec fixes for failures that have no server answer (core §8). */
export const NETWORK_ERROR = 'Network error';
export const AUTH_ERROR = 'Authentication error';

/**
 * A failed API call. `status` is the HTTP status, or 0 when no response arrived at all.
 * `notified` tells callers the user has already seen a notice for it.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly userMessage: string;
  readonly developerMessage: string;
  readonly details: Record<string, string[]> | undefined;
  readonly notified: boolean;

  constructor(init: {
    status: number;
    code?: number;
    userMessage: string;
    developerMessage?: string;
    details?: Record<string, string[]> | undefined;
    notified?: boolean;
    cause?: unknown;
  }) {
    super(init.userMessage, { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code ?? init.status;
    this.userMessage = init.userMessage;
    this.developerMessage = init.developerMessage ?? '';
    this.details = init.details;
    this.notified = init.notified ?? false;
  }

  /** No response arrived (offline, DNS, CORS, server down). */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** True for an ApiError with a 4xx status: retrying the same request will not help. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/** Builds an ApiError from a non-OK response, reading the `{errorInfo}` envelope when present. */
export async function apiErrorFromResponse(response: Response, notified = false): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  if (isErrorInfo(body)) {
    const info = body.errorInfo;
    return new ApiError({
      status: response.status,
      code: info.code,
      userMessage: info.userMessage,
      developerMessage: info.developerMessage,
      details: info.details,
      notified,
    });
  }
  return new ApiError({
    status: response.status,
    userMessage: `Request failed (${response.status})`,
    developerMessage: response.statusText,
    notified,
  });
}

/** True for a 403: the account may not do this (the shared access rule); the screen says so in words. */
export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}
