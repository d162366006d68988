import { FileListSchema, FileRecordSchema, FILE_FIELD, type FileRecord } from '@fleet/shared/schemas/files';
import { statusWith } from '@fleet/shared/schemas/list';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { targetFields, uploadKeys, type UploadTarget } from './upload-target.ts';

/** GET tenant/{entity}/files?level=…&{level}_id=…: the target's files (answer has `files`). */
export function useFiles(target: UploadTarget, enabled = true) {
  return useQuery({
    queryKey: uploadKeys.files(target),
    queryFn: () =>
      api.get(api.tenant('files'), { query: targetFields(target), parse: (d) => FileListSchema.parse(d).files }),
    enabled,
  });
}

/** POST tenant/{entity}/files, multipart: the fields first, then the file (fleet §7). */
export async function uploadFile(target: UploadTarget, file: File, devicePath: string): Promise<FileRecord> {
  const form = new FormData();
  for (const [k, v] of Object.entries(targetFields(target))) form.append(k, v);
  if (devicePath.trim()) form.append('file_device_path', devicePath.trim());
  form.append(FILE_FIELD, file, file.name);
  return api.post(api.tenant('files'), form, {
    notify: false,
    parse: (d) => statusWith(FileRecordSchema).parse(d).data,
  });
}

/** DELETE tenant/{entity}/files/{id}. */
export const deleteFile = (id: string) => api.delete(api.tenant(`files/${encodeURIComponent(id)}`), { notify: false });

/** DELETE tenant/{entity}/files/all?level=…&{level}_id=…: every file of the target. */
export const deleteAllFiles = (target: UploadTarget) =>
  api.delete(api.tenant('files/all'), { query: targetFields(target), notify: false });
