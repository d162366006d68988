import { Button, Grid, Stack } from '@mantine/core';
import { IconArrowBackUp, IconUserShare } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { mayChangeDevices } from '@fleet/shared/registry-access';
import { AllocationHistory } from '@/features/allocation/components/allocation-history.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useDevice } from '@/features/devices/api/get-device.ts';
import { CommandHistory } from '@/features/commands/components/command-history.tsx';
import { DeviceHistory } from '@/features/device-history/components/device-history.tsx';
import { DeviceAlerts } from '@/features/alerts/components/device-alerts.tsx';
import { DeviceCommandButtons } from '@/features/commands/components/device-command-buttons.tsx';
import { DeviceEditForm } from '@/features/devices/components/device-edit-form.tsx';
import { DeviceInfo } from '@/features/devices/components/device-info.tsx';
import { RegenerateCredentials } from '@/features/devices/components/regenerate-credentials.tsx';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useAccess } from '@/lib/session/use-access.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { DeviceLoadError } from './device-load-error.tsx';

/**
 * Device edit for both roles (fleet §2): the editable fields, the device's reported status, its
 * MQTT credentials, its History (issue 26), and its commands (every role may send them) with their history. An unknown
 * name goes back (core §8).
 */
export function DeviceEditView({ landlord }: { landlord: boolean }) {
  const writable = mayChangeDevices(useSession().claims?.subtype);
  // Allocate and Return Device move the device between dispensers: Group_all or all (the shared rule).
  const allocates = useAccess('allocation') === 'change';
  useDocumentTitle(writable ? 'Edit device' : 'Device');
  const { name = '' } = useParams();
  const list = landlord ? '/sdevices' : '/device';
  const device = useDevice(landlord, name);
  const goBack = useGoBack(list);
  const navigate = useNavigate();
  useBackWhenMissing(name === '' || isNotFound(device.error), list);

  if (device.isPending || isNotFound(device.error)) return <PageLoader />;
  if (device.isError)
    return (
      <DeviceLoadError
        title="Edit device"
        what="device"
        error={device.error}
        area="devices"
        onRetry={() => void device.refetch()}
      />
    );

  const { data } = device;
  return (
    <>
      <PageHeader
        title={writable ? 'Edit device' : 'Device'}
        description={data.name}
        actions={
          <>
            <DeviceCommandButtons device={data} />
            {!landlord && allocates && (
              <>
                <Button
                  component={Link}
                  to={`/device/${encodeURIComponent(data.name)}/allocate`}
                  variant="default"
                  leftSection={<IconUserShare size={16} aria-hidden />}
                >
                  Allocate
                </Button>
                <Button
                  component={Link}
                  to={`/device/${encodeURIComponent(data.name)}/deploy`}
                  variant="default"
                  leftSection={<IconArrowBackUp size={16} aria-hidden />}
                >
                  Return Device
                </Button>
              </>
            )}
          </>
        }
      />
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <DeviceEditForm
            key={data.name}
            device={data}
            landlord={landlord}
            readOnly={!writable}
            onSaved={() => void navigate(list)}
            onCancel={goBack}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="lg">
            <DeviceInfo device={data} />
            {writable && <RegenerateCredentials landlord={landlord} name={data.name} />}
          </Stack>
        </Grid.Col>
        {/* Issue 29: the entity's screens only (alerts are read in the active entity). */}
        {!landlord && (
          <Grid.Col span={12}>
            <DeviceAlerts name={data.name} />
          </Grid.Col>
        )}
        <Grid.Col span={12} id="history">
          {/* Issue 26: battery over time and the timeline (docs/decisions/2026-11-25-audit-and-history-placement.md). */}
          <DeviceHistory key={data.name} entity={data.entity} name={data.name} />
        </Grid.Col>
        <Grid.Col span={12}>
          {/* The device's own entity: the landlord's screen serves every entity's devices. */}
          <CommandHistory key={data.name} entity={data.entity} name={data.name} />
        </Grid.Col>
        <Grid.Col span={12}>
          <AllocationHistory key={data.name} entity={data.entity} name={data.name} />
        </Grid.Col>
      </Grid>
    </>
  );
}
