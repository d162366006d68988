import { DeviceFacetsSchema } from '@fleet/shared/schemas/device';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { deviceKeys, devicesPath } from '../../../lib/api/device-paths.ts';

/**
 * GET device/facets: the firmware versions, states and (landlord) entities that occur, for the
 * filter sidebar's choices. Fetched when the sidebar first opens.
 */
export function useDeviceFacets(landlord: boolean, enabled: boolean) {
  const path = `${devicesPath(landlord)}/facets`;
  return useQuery({
    queryKey: deviceKeys.facets(path),
    queryFn: ({ signal }) => api.get(path, { signal, parse: (data) => DeviceFacetsSchema.parse(data) }),
    enabled,
    staleTime: 60_000,
  });
}
