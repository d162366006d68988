import { notifier } from '../notify.ts';
import { refresher, session } from '../session/session.ts';
import { createApiClient } from './api-client.ts';

/** The app's one API client (base /api/v1). */
export const api = createApiClient({
  fetch: (input, init) => fetch(input, init),
  session,
  refresher,
  notifier,
});
