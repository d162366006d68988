import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DeviceSchema } from '@fleet/shared/schemas/device';
import { GroupSchema } from '@fleet/shared/schemas/group';
import { statusWith } from '@fleet/shared/schemas/list';
import { api } from '@/lib/api/api.ts';
import { namedResource } from './named-resource.ts';

/** tenant/{entity}/dispenser: groups are dispensers in the API (fleet §7). */
export const groupsApi = namedResource('dispenser', GroupSchema);

const PutSchema = statusWith(DeviceSchema);

/** POST dispenser/{name}/put/{device}: the device's group and last dispenser become this group. */
export function usePutDevice(group: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (device: string) =>
      api.post(api.tenant(`dispenser/${encodeURIComponent(group)}/put/${encodeURIComponent(device)}`), undefined, {
        parse: (d) => PutSchema.parse(d),
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: groupsApi.keys.all });
      await queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}
