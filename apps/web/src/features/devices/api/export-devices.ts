import { api } from '@/lib/api/api.ts';
import { apiErrorFromResponse } from '@/lib/api/api-error.ts';
import { saveResponse } from '@/lib/download.ts';
import { refresher, session } from '@/lib/session/session.ts';
import { devicesPath } from '../../../lib/api/device-paths.ts';
import { toExportQuery, type DeviceListState } from '../utils/list-query.ts';

/**
 * Downloads the filtered, sorted list as the server streams it (`…/device/export?format=csv`),
 * sent with the session's bearer (a link could not carry it; one refresh and retry on 401), saved
 * under the name the server gives it (the entity and the day).
 */
export async function exportDevices(landlord: boolean, state: DeviceListState): Promise<string> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(toExportQuery(state, landlord))) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, String(v));
  }
  const url = `${api.url(`${devicesPath(landlord)}/export`)}?${query.toString()}`;
  const send = () => fetch(url, { headers: { Authorization: `Bearer ${session.getSnapshot().accessToken ?? ''}` } });
  let response = await send();
  if (response.status === 401) {
    await refresher.refresh();
    response = await send();
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  return saveResponse(response, 'devices.csv');
}
