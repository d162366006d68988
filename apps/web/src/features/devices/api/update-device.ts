import type { DeviceUpdateSet } from '@fleet/shared/schemas/device';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { deviceKeys, devicePath } from '../../../lib/api/device-paths.ts';

export const DEVICE_SAVED = 'Device saved';

/** PUT device/{name} `{operator: {$set}}`. */
export async function updateDevice(landlord: boolean, name: string, set: DeviceUpdateSet): Promise<void> {
  await api.put(devicePath(landlord, name), { operator: { $set: set } });
}

/** Saves changes to device `name` and marks every cached device stale. */
export function useUpdateDevice(landlord: boolean, name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: DeviceUpdateSet) => updateDevice(landlord, name, set),
    onSuccess: (_answer, set) => {
      // After a rename the old name is gone: refetching the open screen's query would only 404.
      const renamed = set.name !== undefined && set.name !== name;
      return queryClient.invalidateQueries({ queryKey: deviceKeys.all, refetchType: renamed ? 'none' : 'active' });
    },
  });
}
