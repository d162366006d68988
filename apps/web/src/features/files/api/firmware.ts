import {
  FIRMWARE_FIELD,
  FirmwareListSchema,
  FirmwareRecordSchema,
  type FirmwareRecord,
} from '@fleet/shared/schemas/files';
import { statusWith } from '@fleet/shared/schemas/list';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { targetFields, uploadKeys, type UploadTarget } from './upload-target.ts';

/** The fields of a firmware upload besides the file (fleet §7). */
export interface FirmwareFields {
  version: string;
  device_type: 'CC1' | 'CC2';
  description: string;
}

/** GET tenant/{entity}/firmware?level=…&{level}_id=…: every type's firmware of the target. */
export function useFirmware(target: UploadTarget, enabled = true) {
  return useQuery({
    queryKey: uploadKeys.firmware(target),
    queryFn: () =>
      api.get(api.tenant('firmware'), {
        query: targetFields(target),
        parse: (d) => FirmwareListSchema.parse(d).files,
      }),
    enabled,
  });
}

/** POST tenant/{entity}/firmware, multipart: firmware_file, version, device_type, description, level, target. */
export async function uploadFirmware(target: UploadTarget, file: File, f: FirmwareFields): Promise<FirmwareRecord> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...targetFields(target), ...f })) form.append(k, v);
  form.append(FIRMWARE_FIELD, file, file.name);
  return api.post(api.tenant('firmware'), form, {
    notify: false,
    parse: (d) => statusWith(FirmwareRecordSchema).parse(d).data,
  });
}

/** DELETE tenant/{entity}/firmware/{id}. */
export const deleteFirmware = (id: string) =>
  api.delete(api.tenant(`firmware/${encodeURIComponent(id)}`), { notify: false });

/**
 * DELETE tenant/{entity}/firmware/all with the target and a device type: the spec sends CC2 for
 * sites and cc2 for groups; the server takes either.
 */
export const deleteAllFirmware = (target: UploadTarget, deviceType: 'CC1' | 'CC2') =>
  api.delete(api.tenant('firmware/all'), {
    query: { ...targetFields(target), device_type: target.level === 'group' ? deviceType.toLowerCase() : deviceType },
    notify: false,
  });
