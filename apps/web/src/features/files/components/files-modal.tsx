import { useState } from 'react';
import { Table, Text, TextInput } from '@mantine/core';
import type { FileRecord } from '@fleet/shared/schemas/files';
import { formatDateTime } from '@/lib/format/time.ts';
import { useFiles } from '../api/files.ts';
import type { UploadTarget } from '../api/upload-target.ts';
import { useFileActions } from '../hooks/use-file-actions.ts';
import { devicePathProblem } from '../utils/check-upload.ts';
import { formatSize } from '../utils/format-size.ts';
import { targetTitle, uploadLimitOf } from '../utils/upload-levels.ts';
import { UploadModal } from './upload-modal.tsx';

interface FilesModalProps {
  target: UploadTarget;
  opened: boolean;
  onClose(): void;
  writable: boolean;
}

/**
 * The Files dialog of entity config, site edit and group edit (fleet §2): upload a file with an
 * optional device path, the list with sizes in Bytes/KB/MB/GB, delete and delete all.
 */
export function FilesModal({ target, opened, onClose, writable }: FilesModalProps) {
  const list = useFiles(target, opened);
  const { upload, remove, removeAll } = useFileActions(target);
  const [devicePath, setDevicePath] = useState('');
  const pathError = devicePathProblem(devicePath);

  return (
    <UploadModal<FileRecord>
      title={`Files — ${targetTitle(target)}`}
      opened={opened}
      onClose={onClose}
      writable={writable}
      limit={uploadLimitOf(target.level)}
      file={{ label: 'File', placeholder: 'Choose a file' }}
      fields={() => (
        <TextInput
          label="Device path (optional)"
          placeholder="e.g. config/app.json"
          value={devicePath}
          onChange={(e) => setDevicePath(e.currentTarget.value)}
          error={pathError}
        />
      )}
      upload={(file, done) => {
        if (pathError) return false;
        upload.mutate(
          { file, devicePath },
          {
            onSuccess: () => {
              done();
              setDevicePath('');
            },
          },
        );
        return true;
      }}
      uploading={upload.isPending}
      list={{
        caption: 'Files',
        headers: ['File', 'Device path', 'Size', 'Uploaded'],
        empty: {
          title: 'No files yet',
          description: writable ? 'Choose a file above to upload the first one.' : 'Nothing has been uploaded here.',
        },
        query: list,
        cells: (f) => (
          <>
            <Table.Td>{f.filename}</Table.Td>
            <Table.Td>
              {f.file_device_path ?? (
                <Text c="dimmed" size="sm">
                  —
                </Text>
              )}
            </Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSize(f.size_bytes)}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(f.upload_date)}</Table.Td>
          </>
        ),
        deleteLabel: (f) => `Delete file ${f.filename}`,
        deleting: (f) => remove.isPending && remove.variables === f.id,
        onDelete: (f) => remove.mutate(f.id),
      }}
      deleteAll={
        (list.data?.length ?? 0) > 0
          ? { label: 'Delete All', loading: removeAll.isPending, onConfirmed: () => removeAll.mutate() }
          : null
      }
    />
  );
}
