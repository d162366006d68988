import { saveResponse } from '../download.ts';
import { refresher, session } from '../session/session.ts';
import { apiErrorFromResponse } from './api-error.ts';
import { api } from './api.ts';

/**
 * Downloads an export the server streams (`path` under /api/v1, with `query`), sent with the
 * session's bearer (a link could not carry it; one refresh and retry on 401), saved under the
 * name the server gives it, else `fallback`. Answers the name; throws the server's error.
 */
export async function downloadExport(path: string, query: URLSearchParams, fallback: string): Promise<string> {
  const url = `${api.url(path)}?${query.toString()}`;
  const send = () => fetch(url, { headers: { Authorization: `Bearer ${session.getSnapshot().accessToken ?? ''}` } });
  let response = await send();
  if (response.status === 401) {
    await refresher.refresh();
    response = await send();
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  return saveResponse(response, fallback);
}
