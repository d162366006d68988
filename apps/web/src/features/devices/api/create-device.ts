import { DeviceWithCredentialsSchema, type DeviceCreateDocument } from '@fleet/shared/schemas/device';
import { statusWith } from '@fleet/shared/schemas/list';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api/api.ts';
import { deviceKeys, devicesPath } from '../../../lib/api/device-paths.ts';

const CreatedSchema = statusWith(DeviceWithCredentialsSchema);
export type CreatedDevice = z.infer<typeof DeviceWithCredentialsSchema>;

/**
 * POST device `{document}`; answers the device with its MQTT credentials, whose password the
 * server shows this once. `notify: false` leaves explaining a failure to the caller.
 */
export async function createDevice(
  landlord: boolean,
  document: DeviceCreateDocument,
  options: { notify?: boolean } = {},
): Promise<CreatedDevice> {
  const answer = await api.post(
    devicesPath(landlord),
    { document },
    { ...options, parse: (d) => CreatedSchema.parse(d) },
  );
  return answer.data;
}

/** Creates one device and marks the device lists stale; answers the server's status text with the device. */
export function useCreateDevice(landlord: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: DeviceCreateDocument) =>
      api.post(devicesPath(landlord), { document }, { parse: (d) => CreatedSchema.parse(d) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
