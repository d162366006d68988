import { useMemo, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { AREA_RULES } from '@fleet/shared/access/rule';
import { RETURN_FAILED, alreadyInDispenser } from '@fleet/shared/schemas/allocation';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { ListError } from '@/components/ui/table-states.tsx';
import { useReturn } from '@/features/allocation/api/kiosk-manager.ts';
import { DispenserPicker, dispenserKey } from '@/features/allocation/components/dispenser-picker.tsx';
import type { DispenserRow } from '@/features/allocation/utils/dispenser-sort.ts';
import { useDevice } from '@/features/devices/api/get-device.ts';
import { groupsApi } from '@/features/org/api/groups.ts';
import { ApiError, isForbidden } from '@/lib/api/api-error.ts';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { DeviceLoadError } from './device-load-error.tsx';

/**
 * /device/{name}/deploy, labelled Return Device (fleet §2): the dispensers of the entity's kiosks,
 * sortable, a radio per row, and Return. The device goes into the chosen dispenser.
 */
export function DeviceReturnPage() {
  const { name = '' } = useParams();
  useDocumentTitle('Return Device');
  const entity = useActiveEntity();
  const device = useDevice(false, name);
  const groups = groupsApi.useList();
  const back = useReturn(entity);
  const navigate = useNavigate();
  const goBack = useGoBack('/device');
  const [chosen, setChosen] = useState<DispenserRow | null>(null);
  useBackWhenMissing(name === '' || isNotFound(device.error), '/device');

  // Only dispensers that stand at a kiosk can take a returned device.
  const rows = useMemo<DispenserRow[]>(
    () =>
      (groups.data ?? []).flatMap((g) =>
        g.kiosk === null
          ? []
          : [
              {
                kiosk: g.kiosk,
                name: g.name,
                capacity: g.capacity,
                devices: g.devices,
                site: g.location.site,
                state: g.state.current,
              },
            ],
      ),
    [groups.data],
  );

  if (device.isPending || isNotFound(device.error)) return <PageLoader />;
  if (device.isError)
    return (
      <DeviceLoadError
        title="Return Device"
        what="device"
        error={device.error}
        area="allocation"
        onRetry={() => void device.refetch()}
      />
    );
  const current = device.data?.group ?? device.data?.last_dispenser?.dispenser;
  // The server refuses a return to the dispenser the device stands in; say so before it is sent.
  const already = chosen !== null && chosen.name === device.data?.group ? alreadyInDispenser(name, chosen.name) : null;

  const submit = () => {
    if (!chosen || already) return;
    back.mutate(
      { kiosk: chosen.kiosk, device: name, dispenser: chosen.name },
      {
        onSuccess: (answer) => {
          if (answer.status === 'queued') notifyWarning(answer.userMessage ?? `Device ${name} is asleep`);
          else notifySuccess(`Device ${name} returned to ${chosen.name} of kiosk ${chosen.kiosk}`);
          void navigate('/device');
        },
        onError: (error) => {
          console.error('return failed', error);
          notifyError(RETURN_FAILED, error instanceof ApiError ? error.userMessage : undefined);
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title="Return Device"
        description={`Device ${name}${current ? `, last in dispenser ${current}` : ''}: choose the dispenser it goes back to`}
      />
      <Stack gap="lg">
        <Paper withBorder radius="md" p="lg">
          {isForbidden(groups.error) ? (
            <Text>Your account cannot read the dispensers. {AREA_RULES.allocation.ask}</Text>
          ) : groups.isError ? (
            <ListError title="The dispensers could not be loaded." onRetry={() => void groups.refetch()} />
          ) : groups.isPending ? (
            <Text c="dimmed">Loading dispensers…</Text>
          ) : (
            <DispenserPicker
              rows={rows}
              value={chosen ? dispenserKey(chosen) : null}
              disabled={back.isPending}
              onChange={setChosen}
            />
          )}
        </Paper>
        {already && (
          <Alert color="orange" variant="light" role="alert" p="sm">
            {already}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={goBack} disabled={back.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={!chosen || already !== null} loading={back.isPending}>
            Return
          </Button>
        </Group>
      </Stack>
    </>
  );
}
