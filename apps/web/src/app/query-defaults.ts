import type { DefaultOptions } from '@tanstack/react-query';
import { isClientError } from '@/lib/api/api-error.ts';

/**
 * The query cache's defaults. A 4xx will fail the same way again, so it is never retried; other
 * read failures get one retry. The API client already shows the notice, so nothing is repeated.
 *
 * Offline (core §"No response at all"): reads keep TanStack's `online` mode, so a read made
 * offline waits and runs when the connection returns (the shell shows the offline banner
 * meanwhile). Writes never wait: `always` sends an action or a save at once, and a failed fetch
 * shows 'Network error' there and then. A command queued while offline would otherwise go out
 * by itself when the connection returns, long after the user was shown it had not.
 */
export const QUERY_DEFAULTS = {
  queries: {
    networkMode: 'online',
    retry: (failureCount, error) => !isClientError(error) && failureCount < 1,
    staleTime: 15_000,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  },
  mutations: { networkMode: 'always', retry: false },
} satisfies DefaultOptions;
