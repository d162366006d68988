import { QueryClient } from '@tanstack/react-query';
import { session } from '@/lib/session/session.ts';
import { QUERY_DEFAULTS } from './query-defaults.ts';

/** Server state cache for the signed-in console (defaults and the offline rule: query-defaults.ts). */
export const queryClient = new QueryClient({ defaultOptions: QUERY_DEFAULTS });

// Nothing cached for one user may show for the next: drop it all on sign-out and on a
// different user adopted from another tab (the account is null again then).
session.subscribe((change, snapshot) => {
  if (snapshot.status !== 'signed-in' || (change === 'adopt' && snapshot.account === null)) queryClient.clear();
});
