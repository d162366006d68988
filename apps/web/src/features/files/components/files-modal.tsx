import { useState } from 'react';
import { FileInput, Group, Table, Text, TextInput } from '@mantine/core';
import type { FileRecord } from '@fleet/shared/schemas/files';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import { useFiles } from '../api/files.ts';
import type { UploadTarget } from '../api/upload-target.ts';
import { useFileActions } from '../hooks/use-file-actions.ts';
import { devicePathProblem, fileProblem } from '../utils/check-upload.ts';
import { formatSize } from '../utils/format-size.ts';
import { targetTitle, uploadLimitOf } from '../utils/upload-levels.ts';
import { UploadDialog } from './upload-dialog.tsx';
import { UploadTable } from './upload-table.tsx';

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
  const confirm = useConfirmDelete();
  const [file, setFile] = useState<File | null>(null);
  const [devicePath, setDevicePath] = useState('');
  const [tried, setTried] = useState(false);
  const limit = uploadLimitOf(target.level);
  const fileError = tried || file ? fileProblem(file, limit) : null;
  const pathError = devicePathProblem(devicePath);

  const submit = () => {
    setTried(true);
    if (fileProblem(file, limit) || pathError || !file) return;
    upload.mutate(
      { file, devicePath },
      {
        onSuccess: () => {
          setFile(null);
          setDevicePath('');
          setTried(false);
        },
      },
    );
  };

  const row = (f: FileRecord) => (
    <Table.Tr key={f.id}>
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
      <Table.Td ta="right">
        {writable && (
          <DeleteAction
            tooltip="Delete"
            label={`Delete file ${f.filename}`}
            loading={remove.isPending && remove.variables === f.id}
            onClick={async () => (await confirm()) && remove.mutate(f.id)}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );

  return (
    <UploadDialog
      title={`Files — ${targetTitle(target)}`}
      opened={opened}
      onClose={onClose}
      writable={writable}
      limit={limit}
      uploading={upload.isPending}
      onUpload={submit}
      fields={
        <Group align="flex-start" grow>
          <FileInput
            label="File"
            placeholder="Choose a file"
            // Mantine's placeholder grey is too faint on a real element (2:1); dimmed passes AA.
            styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
            value={file}
            onChange={setFile}
            error={fileError}
            required
            clearable
          />
          <TextInput
            label="Device path (optional)"
            placeholder="e.g. config/app.json"
            value={devicePath}
            onChange={(e) => setDevicePath(e.currentTarget.value)}
            error={pathError}
          />
        </Group>
      }
      list={
        <UploadTable
          caption="Files"
          headers={['File', 'Device path', 'Size', 'Uploaded', '']}
          empty={{
            title: 'No files yet',
            description: writable ? 'Choose a file above to upload the first one.' : 'Nothing has been uploaded here.',
          }}
          rows={list.data}
          loading={list.isPending && opened}
          failed={list.isError}
          onRetry={() => void list.refetch()}
          row={row}
        />
      }
      deleteAll={
        (list.data?.length ?? 0) > 0
          ? {
              label: 'Delete All',
              loading: removeAll.isPending,
              onClick: async () => (await confirm()) && removeAll.mutate(),
            }
          : null
      }
    />
  );
}
