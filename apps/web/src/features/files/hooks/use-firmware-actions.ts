import type { FirmwareRecord } from '@fleet/shared/schemas/files';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { deleteAllFirmware, deleteFirmware, uploadFirmware, type FirmwareFields } from '../api/firmware.ts';
import { uploadKeys, type UploadTarget } from '../api/upload-target.ts';
import { FILE_TEXT, uploadErrorText } from '../utils/upload-messages.ts';

/**
 * Upload, delete and delete-all of one target's firmware with the spec's notices (fleet §8). A
 * deletion leaves the list at once and comes back if the server refuses it ('Firmware deletion
 * failed'); a failed delete-all says 'Failed to delete all firmware'.
 */
export function useFirmwareActions(target: UploadTarget) {
  const queryClient = useQueryClient();
  const key = uploadKeys.firmware(target);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const upload = useMutation({
    mutationFn: ({ file, fields }: { file: File; fields: FirmwareFields }) => uploadFirmware(target, file, fields),
    onSuccess: (record) => {
      queryClient.setQueryData<FirmwareRecord[]>(key, (list) => [record, ...(list ?? [])]);
      notifySuccess(`Firmware ${record.version} uploaded`);
    },
    onError: (error) => notifyError(FILE_TEXT.firmwareUploadFailedTitle, uploadErrorText(error, FILE_TEXT.unexpected)),
    // Not awaited: a returned promise keeps the upload pending until the list's refetch ends, and the
    // form's `done` (clearing the file and fields) would then run after the notice and the new
    // row, wiping what the user had begun to enter for the next upload.
    onSettled: () => void refresh(),
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteFirmware(id),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<FirmwareRecord[]>(key);
      queryClient.setQueryData<FirmwareRecord[]>(key, (list) => list?.filter((f) => f.id !== id));
      return { before };
    },
    onError: (error, _id, context) => {
      // The list is restored after a failed deletion (fleet §8).
      if (context?.before) queryClient.setQueryData(key, context.before);
      notifyError(FILE_TEXT.firmwareDeleteFailedTitle, uploadErrorText(error, FILE_TEXT.unexpected));
    },
    onSettled: refresh,
  });

  const removeAll = useMutation({
    mutationFn: (deviceType: 'CC1' | 'CC2') => deleteAllFirmware(target, deviceType),
    onError: (error) =>
      notifyError(FILE_TEXT.deleteFailedTitle, uploadErrorText(error, FILE_TEXT.deleteAllFirmwareFailed)),
    onSettled: refresh,
  });

  return { upload, remove, removeAll };
}
