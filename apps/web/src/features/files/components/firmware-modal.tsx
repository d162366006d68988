import { useState } from 'react';
import { Badge, Select, Table, Text, TextInput } from '@mantine/core';
import { DEFAULT_FIRMWARE_DEVICE_TYPE, DEVICE_TYPES } from '@fleet/shared/constants';
import type { FirmwareRecord } from '@fleet/shared/schemas/files';
import { MESSAGES } from '@fleet/shared/messages';
import { formatDateTime } from '@/lib/format/time.ts';
import { useFirmware } from '../api/firmware.ts';
import type { UploadTarget } from '../api/upload-target.ts';
import { useFirmwareActions } from '../hooks/use-firmware-actions.ts';
import { formatSize } from '../utils/format-size.ts';
import { targetTitle, uploadLimitOf } from '../utils/upload-levels.ts';
import { UploadModal } from './upload-modal.tsx';

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
  const [version, setVersion] = useState('');
  const [deviceType, setDeviceType] = useState<DeviceType>(DEFAULT_FIRMWARE_DEVICE_TYPE);
  const [description, setDescription] = useState('');
  const ofType = (list.data ?? []).filter((f) => f.device_type === deviceType).length;

  return (
    <UploadModal<FirmwareRecord>
      title={`Firmware — ${targetTitle(target)}`}
      opened={opened}
      onClose={onClose}
      writable={writable}
      limit={uploadLimitOf(target.level)}
      file={{ label: 'Firmware file', placeholder: 'Choose an image' }}
      fields={(tried) => (
        <>
          <TextInput
            label="Version"
            placeholder="e.g. 2.1.0"
            value={version}
            onChange={(e) => setVersion(e.currentTarget.value)}
            error={tried && version.trim() === '' ? MESSAGES.required : null}
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
        </>
      )}
      below={
        <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      }
      upload={(file, done) => {
        if (version.trim() === '') return false;
        upload.mutate(
          { file, fields: { version: version.trim(), device_type: deviceType, description } },
          {
            onSuccess: () => {
              done();
              setVersion('');
              setDescription('');
            },
          },
        );
        return true;
      }}
      uploading={upload.isPending}
      list={{
        caption: 'Firmware',
        headers: ['Version', 'Type', 'File', 'Size', 'Released', 'Description'],
        empty: {
          title: 'No firmware yet',
          description: 'Devices here get the firmware of a wider level (site or entity) until one is uploaded.',
        },
        query: list,
        cells: (f) => (
          <>
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
          </>
        ),
        deleteLabel: (f) => `Delete firmware ${f.version} for ${f.device_type}`,
        deleting: () => false,
        onDelete: (f) => remove.mutate(f.id),
      }}
      deleteAll={
        ofType > 0
          ? {
              label: `Delete all ${deviceType} firmware`,
              loading: removeAll.isPending,
              onConfirmed: () => removeAll.mutate(deviceType),
            }
          : null
      }
    />
  );
}
