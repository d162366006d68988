import { TokenListSchema, type PermanentToken } from '@fleet/shared/schemas/token';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error.ts';
import { api } from '@/lib/api/api.ts';
import { notifyError } from '@/lib/notify.ts';

export const LOAD_TOKENS_ERROR = 'Failed to load tokens';

/** Query keys of the token cache, by list path. */
export const tokenKeys = {
  all: ['tokens'] as const,
  list: (path: string) => [...tokenKeys.all, path] as const,
};

/** GET account/{name}/tokens; a failure says 'Failed to load tokens' (core §8). */
export async function getTokens(path: string, signal?: AbortSignal): Promise<PermanentToken[]> {
  try {
    const answer = await api.get(path, { signal, notify: false, parse: (data) => TokenListSchema.parse(data) });
    return answer.tokens;
  } catch (error) {
    // A failed refresh has already signed out with its own notice.
    const signedOut = error instanceof ApiError && error.status === 401;
    if (!signal?.aborted && !signedOut) notifyError(LOAD_TOKENS_ERROR);
    throw error;
  }
}

/** An account's permanent tokens (never their values). */
export function useTokens(path: string) {
  return useQuery({ queryKey: tokenKeys.list(path), queryFn: ({ signal }) => getTokens(path, signal) });
}
