import type { FileRecord } from '@fleet/shared/schemas/files';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { deleteAllFiles, deleteFile, uploadFile } from '../api/files.ts';
import { uploadKeys, type UploadTarget } from '../api/upload-target.ts';
import { FILE_TEXT, uploadErrorText } from '../utils/upload-messages.ts';

/**
 * Upload, delete and delete-all of one target's files with the spec's notices (fleet §8):
 * 'File uploaded successfully!', 'File Upload Failed' with the server's message or 'Failed to
 * upload file', 'Delete Failed', 'Failed to delete all files'.
 */
export function useFileActions(target: UploadTarget) {
  const queryClient = useQueryClient();
  const key = uploadKeys.files(target);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const upload = useMutation({
    mutationFn: ({ file, devicePath }: { file: File; devicePath: string }) => uploadFile(target, file, devicePath),
    onSuccess: (record) => {
      queryClient.setQueryData<FileRecord[]>(key, (list) => [record, ...(list ?? [])]);
      notifySuccess(FILE_TEXT.uploaded);
    },
    onError: (error) => notifyError(FILE_TEXT.uploadFailedTitle, uploadErrorText(error, FILE_TEXT.uploadFailed)),
    // Not awaited: a returned promise keeps the upload pending until the list's refetch ends, and the
    // form's `done` (clearing the file and fields) would then run after the notice and the new
    // row, wiping what the user had begun to enter for the next upload.
    onSettled: () => void refresh(),
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteFile(id),
    onError: (error) => notifyError(FILE_TEXT.deleteFailedTitle, uploadErrorText(error, FILE_TEXT.uploadFailed)),
    onSettled: refresh,
  });

  const removeAll = useMutation({
    mutationFn: () => deleteAllFiles(target),
    onError: (error) =>
      notifyError(FILE_TEXT.deleteFailedTitle, uploadErrorText(error, FILE_TEXT.deleteAllFilesFailed)),
    onSettled: refresh,
  });

  return { upload, remove, removeAll };
}
