import { useState, type ReactNode } from 'react';
import { Button, FileInput, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { fileProblem } from '../utils/check-upload.ts';
import { UploadTable } from './upload-table.tsx';

/** The stored items' list: the query's state, the columns, and each item's cells and deletion. */
interface UploadList<T> {
  caption: string;
  /** Column headers; the modal adds the actions column. */
  headers: string[];
  empty: { title: string; description: string };
  query: { data: T[] | undefined; isPending: boolean; isError: boolean; refetch(): unknown };
  /** The item's cells, without the delete action. */
  cells(item: T): ReactNode;
  deleteLabel(item: T): string;
  deleting(item: T): boolean;
  /** Deletes the item; asked after the user confirmed. */
  onDelete(item: T): void;
}

interface UploadModalProps<T extends { id: string }> {
  title: string;
  opened: boolean;
  onClose(): void;
  /** Writers see the upload form and the deletions; everyone sees the list. */
  writable: boolean;
  /** The level's upload limit in bytes. */
  limit: number;
  file: { label: string; placeholder: string };
  /** The inputs beside the file, told whether an upload was tried (required fields say so then). */
  fields(tried: boolean): ReactNode;
  /** Inputs under the first row. */
  below?: ReactNode;
  /** Sends `file` with the other fields; false when they are not valid. Call `done` on success to clear the form. */
  upload(file: File, done: () => void): boolean;
  uploading: boolean;
  list: UploadList<T>;
  /** Delete all, when there is something to delete; asked after the user confirmed. */
  deleteAll: { label: string; loading: boolean; onConfirmed(): void } | null;
}

/**
 * The Files and Firmware dialogs of entity config, site edit and group edit (fleet §2): the upload
 * form (file first, checked against the level's limit), the list with its loading, empty and error
 * states, each item's delete and delete all, both confirmed.
 */
export function UploadModal<T extends { id: string }>(p: UploadModalProps<T>) {
  const confirm = useConfirmDelete();
  const [file, setFile] = useState<File | null>(null);
  const [tried, setTried] = useState(false);
  const fileError = tried || file ? fileProblem(file, p.limit) : null;
  const { list, deleteAll } = p;

  const submit = () => {
    setTried(true);
    if (!file || fileProblem(file, p.limit)) return;
    p.upload(file, () => {
      setFile(null);
      setTried(false);
    });
  };

  const row = (item: T) => (
    <Table.Tr key={item.id}>
      {list.cells(item)}
      <Table.Td ta="right">
        {p.writable && (
          <DeleteAction
            tooltip="Delete"
            label={list.deleteLabel(item)}
            loading={list.deleting(item)}
            onClick={async () => (await confirm()) && list.onDelete(item)}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );

  return (
    <Modal opened={p.opened} onClose={p.onClose} title={<Text fw={700}>{p.title}</Text>} size="xl" zIndex={150}>
      <Stack gap="md">
        {p.writable && (
          <Stack gap="xs">
            <Group align="flex-start" grow>
              <FileInput
                label={p.file.label}
                placeholder={p.file.placeholder}
                // Mantine's placeholder grey is too faint on a real element (2:1); dimmed passes AA.
                styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
                value={file}
                onChange={setFile}
                error={fileError}
                required
                clearable
              />
              {p.fields(tried)}
            </Group>
            {p.below}
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                Up to {p.limit} Bytes
              </Text>
              <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={submit} loading={p.uploading}>
                Upload
              </Button>
            </Group>
          </Stack>
        )}
        <UploadTable
          caption={list.caption}
          headers={[...list.headers, '']}
          empty={list.empty}
          rows={list.query.data}
          loading={list.query.isPending && p.opened}
          failed={list.query.isError}
          onRetry={() => void list.query.refetch()}
          row={row}
        />
        {p.writable && deleteAll && (
          <Group justify="flex-end">
            <Button
              color="red"
              variant="light"
              loading={deleteAll.loading}
              onClick={async () => (await confirm()) && deleteAll.onConfirmed()}
            >
              {deleteAll.label}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
