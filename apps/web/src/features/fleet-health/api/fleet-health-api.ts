import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { FleetHealthSchema, type FleetHealthWindow } from '@fleet/shared/schemas/fleet-health';
import { DEVICE_LIST_REFRESH_MS } from '@fleet/shared/constants';
import { api } from '@/lib/api/api.ts';

export const fleetHealthKeys = {
  all: ['fleet-health'] as const,
  one: (path: string, query: Record<string, string>) => [...fleetHealthKeys.all, path, query] as const,
};

/**
 * The fleet health of the active entity (`tenant/{entity}/fleet-health`), or the superadmin's of
 * every entity or the one chosen (`fleet-health?entity=`); refreshed as often as the device list.
 */
export function useFleetHealth(landlord: boolean, window: FleetHealthWindow, entity?: string) {
  const path = landlord ? 'fleet-health' : api.tenant('fleet-health');
  const query: Record<string, string> = { window, ...(landlord && entity ? { entity } : {}) };
  return useQuery({
    queryKey: fleetHealthKeys.one(path, query),
    queryFn: ({ signal }) =>
      api.get(path, { query, signal, notify: false, parse: (data) => FleetHealthSchema.parse(data) }),
    placeholderData: keepPreviousData,
    refetchInterval: DEVICE_LIST_REFRESH_MS,
  });
}
