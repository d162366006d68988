import { DEVICE_LIST_REFRESH_MS } from '@fleet/shared/constants';
import { DeviceSchema, type Device } from '@fleet/shared/schemas/device';
import { listOf } from '@fleet/shared/schemas/list';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { toApiQuery, type DeviceApiQuery, type DeviceListState } from '../utils/list-query.ts';
import { deviceKeys, devicesPath } from '../../../lib/api/device-paths.ts';

const DeviceListSchema = listOf(DeviceSchema);

/** GET device: one page, filtered and sorted by the server. */
export async function getDevices(
  path: string,
  query: DeviceApiQuery,
  signal?: AbortSignal,
): Promise<{ data: Device[]; total: number }> {
  return api.get(path, { query, signal, parse: (data) => DeviceListSchema.parse(data) });
}

/**
 * The device list page for `state`, refreshed every 30 s (core §2, §9). The previous page stays
 * on screen while the next one loads, so refreshing, paging and filtering never flicker.
 */
export function useDevices(landlord: boolean, state: DeviceListState) {
  const path = devicesPath(landlord);
  const query = toApiQuery(state, landlord);
  return useQuery({
    queryKey: deviceKeys.list(path, query),
    queryFn: ({ signal }) => getDevices(path, query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_REFRESH_MS,
  });
}
