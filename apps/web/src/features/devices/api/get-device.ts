import { DeviceSchema, type Device } from '@fleet/shared/schemas/device';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api/api.ts';
import { deviceKeys, devicePath } from '../../../lib/api/device-paths.ts';

const DeviceAnswerSchema = z.object({ data: DeviceSchema });

/** GET device/{name}. */
export async function getDevice(path: string, signal?: AbortSignal): Promise<Device> {
  const answer = await api.get(path, { signal, parse: (data) => DeviceAnswerSchema.parse(data) });
  return answer.data;
}

/** One device by name, at the landlord's plain path or the active entity's. */
export function useDevice(landlord: boolean, name: string) {
  const path = devicePath(landlord, name);
  return useQuery({
    queryKey: deviceKeys.detail(path),
    queryFn: ({ signal }) => getDevice(path, signal),
    enabled: name !== '',
  });
}
