import { QueryClient } from '@tanstack/react-query';
import { isClientError } from '@/lib/api/api-error.ts';
import { session } from '@/lib/session/session.ts';

/**
 * Server state cache. A 4xx will fail the same way again, so it is never retried; other
 * failures get one retry. The API client already shows the notice, so nothing is repeated here.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => !isClientError(error) && failureCount < 1,
      staleTime: 15_000,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});

// Nothing cached for one user may show for the next: drop it all on sign-out and on a
// different user adopted from another tab (the account is null again then).
session.subscribe((change, snapshot) => {
  if (snapshot.status !== 'signed-in' || (change === 'adopt' && snapshot.account === null)) queryClient.clear();
});
