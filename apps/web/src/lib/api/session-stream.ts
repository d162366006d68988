import { openEventStream, type EventStream, type EventStreamOptions } from '../sse.ts';
import { api } from './api.ts';
import { refresher, session } from '../session/session.ts';

/**
 * An event stream of the API at `path` (e.g. `tenant/acme/alerts/events`) on the tab's session:
 * its access token for each connection, renewed through the refresher after a 401 or an expiry.
 */
export function openSessionStream(
  path: string,
  handlers: Omit<EventStreamOptions, 'url' | 'token' | 'renew'>,
): EventStream {
  return openEventStream({
    url: api.url(path),
    token: () => session.getSnapshot().accessToken,
    renew: () => refresher.refresh().then(() => session.getSnapshot().status === 'signed-in'),
    ...handlers,
  });
}
