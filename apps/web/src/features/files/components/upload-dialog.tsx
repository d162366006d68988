import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';

interface UploadDialogProps {
  title: string;
  opened: boolean;
  onClose(): void;
  /** Writers see the upload form and the deletions; everyone sees the list. */
  writable: boolean;
  /** The form's fields (file first); the dialog adds the limit and the Upload button. */
  fields: ReactNode;
  limit: number;
  uploading: boolean;
  onUpload(): void;
  list: ReactNode;
  /** The delete-all button, when there is something to delete. */
  deleteAll: { label: string; loading: boolean; onClick(): void } | null;
}

/** The frame the Files and Firmware dialogs share: upload form, list, delete all. */
export function UploadDialog(p: UploadDialogProps) {
  return (
    <Modal opened={p.opened} onClose={p.onClose} title={<Text fw={700}>{p.title}</Text>} size="xl" zIndex={150}>
      <Stack gap="md">
        {p.writable && (
          <Stack gap="xs">
            {p.fields}
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                Up to {p.limit} Bytes
              </Text>
              <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={p.onUpload} loading={p.uploading}>
                Upload
              </Button>
            </Group>
          </Stack>
        )}
        {p.list}
        {p.writable && p.deleteAll && (
          <Group justify="flex-end">
            <Button color="red" variant="light" loading={p.deleteAll.loading} onClick={p.deleteAll.onClick}>
              {p.deleteAll.label}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
