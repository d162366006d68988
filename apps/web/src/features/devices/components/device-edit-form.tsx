import type { FormEvent } from 'react';
import { Button, Group, Paper, Stack } from '@mantine/core';
import type { Device } from '@fleet/shared/schemas/device';
import { notifySuccess } from '@/lib/notify.ts';
import { DEVICE_SAVED, useUpdateDevice } from '../api/update-device.ts';
import { useDeviceForm } from '../hooks/use-device-form.ts';
import { buildUpdateSet, formValuesOf, validateEdit } from '../utils/device-form.ts';
import { DeviceFormFields } from './device-form-fields.tsx';

interface DeviceEditFormProps {
  device: Device;
  landlord: boolean;
  readOnly: boolean;
  onSaved(): void;
  onCancel(): void;
}

/** Device edit (fleet §2): saves only what changed, says 'Device saved' (core §8). */
export function DeviceEditForm({ device, landlord, readOnly, onSaved, onCancel }: DeviceEditFormProps) {
  const form = useDeviceForm(formValuesOf(device), (values) => validateEdit(values, device));
  const update = useUpdateDevice(landlord, device.name);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check()) return;
    const set = buildUpdateSet(form.values, device);
    if (Object.keys(set).length === 0) return onSaved();
    update.mutate(set, {
      onSuccess: () => {
        notifySuccess(DEVICE_SAVED);
        onSaved();
      },
      onError: (error) => {
        console.error('Device not saved:', error);
        form.showServerErrors(error);
      },
    });
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="lg">
          <DeviceFormFields
            form={form}
            manufacturingType={device.manufacturing_type}
            entity={device.entity}
            hasCertificate={device.has_certificate}
            readOnly={readOnly}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={update.isPending}>
              {readOnly ? 'Back' : 'Cancel'}
            </Button>
            {!readOnly && (
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
