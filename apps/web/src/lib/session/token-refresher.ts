import { isRefreshResponse } from '@fleet/shared/guards';
import type { SessionStore } from './session-store.ts';

/** Name of the Web Lock that serialises refreshes across tabs. */
export const REFRESH_LOCK = 'fleet-refresh';

/** A refresh that did not produce a usable pair. `fatal`: the server rejected the refresh token. */
export class RefreshError extends Error {
  readonly fatal: boolean;
  readonly status: number;

  constructor(message: string, options: { fatal: boolean; status: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'RefreshError';
    this.fatal = options.fatal;
    this.status = options.status;
  }
}

/** `refreshed`: we rotated the pair; `adopted`: another tab already had, and we took its pair. */
export type RefreshOutcome = 'refreshed' | 'adopted';

/** The part of the Web Locks API we need (navigator.locks). */
export interface LockRunner {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface TokenRefresherDeps {
  fetch: typeof fetch;
  session: Pick<SessionStore, 'getSnapshot' | 'readStored' | 'setTokens' | 'adoptStored'>;
  /** Absent where the Web Locks API is unavailable; storage re-reading still limits double refreshes. */
  locks?: LockRunner | undefined;
  url?: string;
}

export interface TokenRefresher {
  /** Rotates the token pair once; concurrent callers share the same attempt. Throws RefreshError. */
  refresh(): Promise<RefreshOutcome>;
}

/**
 * Refresh tokens rotate and reuse of a spent one revokes the whole family, so at most one
 * refresh may be in flight per browser: single-flight in this tab, a Web Lock across tabs, and
 * inside the lock a re-read of storage in case another tab rotated while we waited.
 */
export function createTokenRefresher(deps: TokenRefresherDeps): TokenRefresher {
  const url = deps.url ?? '/api/v1/refresh';
  let inFlight: Promise<RefreshOutcome> | null = null;

  async function rotate(expectedRefreshToken: string): Promise<RefreshOutcome> {
    const stored = deps.session.readStored();
    if (!stored.refreshToken || !stored.accessToken) {
      deps.session.adoptStored();
      throw new RefreshError('Signed out in another tab', { fatal: true, status: 401 });
    }
    if (stored.refreshToken !== expectedRefreshToken) {
      deps.session.adoptStored();
      return 'adopted';
    }
    let response: Response;
    try {
      response = await deps.fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stored.refreshToken}`, Accept: 'application/json' },
      });
    } catch (cause) {
      throw new RefreshError('Network error', { fatal: false, status: 0, cause });
    }
    if (response.status === 401 || response.status === 403) {
      throw new RefreshError('Refresh token rejected', { fatal: true, status: response.status });
    }
    if (!response.ok) {
      throw new RefreshError(`Refresh failed (${response.status})`, { fatal: false, status: response.status });
    }
    const body: unknown = await response.json().catch(() => null);
    if (!isRefreshResponse(body)) {
      throw new RefreshError('Malformed refresh answer', { fatal: false, status: response.status });
    }
    deps.session.setTokens(body.access_token, body.refresh_token);
    return 'refreshed';
  }

  async function run(): Promise<RefreshOutcome> {
    const expected = deps.session.getSnapshot().refreshToken;
    if (!expected) throw new RefreshError('Not signed in', { fatal: true, status: 401 });
    if (deps.locks) return deps.locks.request(REFRESH_LOCK, () => rotate(expected));
    return rotate(expected);
  }

  return {
    refresh() {
      inFlight ??= run().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}
