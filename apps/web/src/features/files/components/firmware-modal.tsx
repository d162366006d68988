import { useState } from 'react';
import { Badge, FileInput, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { DEFAULT_FIRMWARE_DEVICE_TYPE, DEVICE_TYPES } from '@fleet/shared/constants';
import type { FirmwareRecord } from '@fleet/shared/schemas/files';
import { MESSAGES } from '@fleet/shared/messages';
import { useConfirmDelete } from '@/components/ui/confirm-delete.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import { useFirmware } from '../api/firmware.ts';
import type { UploadTarget } from '../api/upload-target.ts';
import { useFirmwareActions } from '../hooks/use-firmware-actions.ts';
import { fileProblem } from '../utils/check-upload.ts';
import { formatSize } from '../utils/format-size.ts';
import { targetTitle, uploadLimitOf } from '../utils/upload-levels.ts';
import { UploadDialog } from './upload-dialog.tsx';
import { UploadTable } from './upload-table.tsx';

type DeviceType = (typeof DEVICE_TYPES)[number];

interface FirmwareModalProps {
  target: UploadTarget;
  opened: boolean;
  onClose(): void;
  writable: boolean;
}

/**
 * The Firmware dialog of entity config, site edit and group edit (fleet §2): upload with file,
 * version and device type (default CC2), the list, delete (restored if refused) and delete all
 * of one device type.
 */
export function FirmwareModal({ target, opened, onClose, writable }: FirmwareModalProps) {
  const list = useFirmware(target, opened);
  const { upload, remove, removeAll } = useFirmwareActions(target);
  const confirm = useConfirmDelete();
  const [file, setFile] = useState<File | null>(null);
  const [version, setVersion] = useState('');
  const [deviceType, setDeviceType] = useState<DeviceType>(DEFAULT_FIRMWARE_DEVICE_TYPE);
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);
  const limit = uploadLimitOf(target.level);
  const fileError = tried || file ? fileProblem(file, limit) : null;
  const versionError = tried && version.trim() === '' ? MESSAGES.required : null;
  const ofType = (list.data ?? []).filter((f) => f.device_type === deviceType).length;

  const submit = () => {
    setTried(true);
    if (!file || fileProblem(file, limit) || version.trim() === '') return;
    upload.mutate(
      { file, fields: { version: version.trim(), device_type: deviceType, description } },
      {
        onSuccess: () => {
          setFile(null);
          setVersion('');
          setDescription('');
          setTried(false);
        },
      },
    );
  };

  const row = (f: FirmwareRecord) => (
    <Table.Tr key={f.id}>
      <Table.Td fw={500}>{f.version}</Table.Td>
      <Table.Td>
        <Badge variant="light" color={f.device_type === 'CC1' ? 'grape' : 'cyan'}>
          {f.device_type}
        </Badge>
      </Table.Td>
      <Table.Td>{f.filename}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSize(f.size_bytes)}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(f.release_date)}</Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={2}>
          {f.description}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        {writable && (
          <DeleteAction
            tooltip="Delete"
            label={`Delete firmware ${f.version} for ${f.device_type}`}
            loading={false}
            onClick={async () => (await confirm()) && remove.mutate(f.id)}
          />
        )}
      </Table.Td>
    </Table.Tr>
  );

  return (
    <UploadDialog
      title={`Firmware — ${targetTitle(target)}`}
      opened={opened}
      onClose={onClose}
      writable={writable}
      limit={limit}
      uploading={upload.isPending}
      onUpload={submit}
      fields={
        <>
          <Group align="flex-start" grow>
            <FileInput
              label="Firmware file"
              placeholder="Choose an image"
              // Mantine's placeholder grey is too faint on a real element (2:1); dimmed passes AA.
              styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
              value={file}
              onChange={setFile}
              error={fileError}
              required
              clearable
            />
            <TextInput
              label="Version"
              placeholder="e.g. 2.1.0"
              value={version}
              onChange={(e) => setVersion(e.currentTarget.value)}
              error={versionError}
              required
            />
            <Select
              label="Device type"
              data={[...DEVICE_TYPES]}
              value={deviceType}
              onChange={(v) => v && setDeviceType(v as DeviceType)}
              allowDeselect={false}
              required
            />
          </Group>
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
        </>
      }
      list={
        <UploadTable
          caption="Firmware"
          headers={['Version', 'Type', 'File', 'Size', 'Released', 'Description', '']}
          empty={{
            title: 'No firmware yet',
            description: 'Devices here get the firmware of a wider level (site or entity) until one is uploaded.',
          }}
          rows={list.data}
          loading={list.isPending && opened}
          failed={list.isError}
          onRetry={() => void list.refetch()}
          row={row}
        />
      }
      deleteAll={
        ofType > 0
          ? {
              label: `Delete all ${deviceType} firmware`,
              loading: removeAll.isPending,
              onClick: async () => (await confirm()) && removeAll.mutate(deviceType),
            }
          : null
      }
    />
  );
}
