import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { mayChangeDevices } from '@fleet/shared/registry-access';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { useCreateDevice } from '@/features/devices/api/create-device.ts';
import { DeviceFormFields } from '@/features/devices/components/device-form-fields.tsx';
import type { EntityChoice } from '@/lib/forms/entity-choice.ts';
import { MqttCredentialsModal, type MqttCredentials } from '@/features/devices/components/mqtt-credentials-modal.tsx';
import { useDeviceForm } from '@/features/devices/hooks/use-device-form.ts';
import { EMPTY_DEVICE_FORM, buildCreateDocument, validateCreate } from '@/features/devices/utils/device-form.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { notifySuccess } from '@/lib/notify.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

interface DeviceCreateViewProps {
  landlord: boolean;
  /** The landlord's entity choices. */
  entities?: { choices: readonly EntityChoice[] | undefined; loading: boolean };
}

/**
 * Device create (fleet §2) for both roles; the landlord's (/sdevices/new) also chooses the
 * entity. After the save the MQTT credentials are shown once, then the list opens.
 */
export function DeviceCreateView({ landlord, entities }: DeviceCreateViewProps) {
  useDocumentTitle('New device');
  const list = landlord ? '/sdevices' : '/device';
  const navigate = useNavigate();
  const goBack = useGoBack(list);
  const { claims } = useSession();
  const form = useDeviceForm(EMPTY_DEVICE_FORM, (values) => validateCreate(values, landlord));
  const create = useCreateDevice(landlord);
  const [credentials, setCredentials] = useState<MqttCredentials | null>(null);

  if (!mayChangeDevices(claims?.subtype)) return <ReadOnlyNotice title="New device" list={list} />;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.check()) return;
    create.mutate(buildCreateDocument(form.values, landlord), {
      // Creation shows the server's status text (core §8).
      onSuccess: (answer) => {
        notifySuccess(answer.status);
        setCredentials(answer.data.mqtt);
      },
      // The client showed the red notice; the form is usable again and the error logged (core §8).
      onError: (error) => {
        console.error('Device not created:', error);
        form.showServerErrors(error);
      },
    });
  };

  return (
    <>
      <PageHeader title="New device" />
      <Paper withBorder radius="md" p="lg" maw={760}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="lg">
            <DeviceFormFields form={form} entities={landlord ? entities : undefined} autoFocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={goBack} disabled={create.isPending || credentials !== null}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} disabled={credentials !== null}>
                Add Device
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <MqttCredentialsModal
        credentials={credentials}
        title="Device added: its MQTT credentials"
        onDone={() => void navigate(list, { replace: true })}
      />
    </>
  );
}

/** Operators and infra read the registry only (the server answers their changes with 403). */
export function ReadOnlyNotice({ title, list }: { title: string; list: string }) {
  const goBack = useGoBack(list);
  return (
    <>
      <PageHeader title={title} />
      <Alert color="gray" variant="light" title="Read-only access" maw={640}>
        Your account type can see devices but not add or change them. Ask an administrator or developer.
        <Group mt="md">
          <Button variant="default" onClick={goBack}>
            Back
          </Button>
        </Group>
      </Alert>
    </>
  );
}
