import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { NO_KIOSK_INFORMATION } from '@fleet/shared/schemas/allocation';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { useAllocate } from '@/features/allocation/api/kiosk-manager.ts';
import { AllocateForm } from '@/features/allocation/components/allocate-form.tsx';
import { getDataview } from '@/features/dataviews/api/get-dataview.ts';
import { useDataviews } from '@/features/dataviews/api/get-dataviews.ts';
import { useDevice } from '@/features/devices/api/get-device.ts';
import { groupsApi } from '@/features/org/api/groups.ts';
import { JsonInfoField } from '@/features/org/components/json-info-field.tsx';
import { ApiError } from '@/lib/api/api-error.ts';
import { isNotFound, useBackWhenMissing } from '@/lib/navigation/use-back-when-missing.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { DeviceLoadError } from './device-load-error.tsx';

/**
 * /device/{name}/allocate (fleet §2): allocates the device from the kiosk of its last dispenser.
 * A device without one goes back with 'Device has no kiosk information.' (fleet §4, §8).
 */
export function DeviceAllocatePage() {
  const { name = '' } = useParams();
  useDocumentTitle(`Allocate Device ${name}`);
  const entity = useActiveEntity();
  const device = useDevice(false, name);
  const dispenser = device.data?.last_dispenser?.dispenser ?? '';
  const group = groupsApi.useOne(dispenser);
  const kiosk = group.data?.kiosk ?? null;
  const dataviews = useDataviews(entity);
  const allocate = useAllocate(entity, kiosk ?? '');
  const navigate = useNavigate();
  const goBack = useGoBack('/device');
  const [networkFileError, setNetworkFileError] = useState<string | undefined>();
  useBackWhenMissing(name === '' || isNotFound(device.error), '/device');

  const noKiosk =
    device.data !== undefined &&
    (device.data.last_dispenser === null || isNotFound(group.error) || (group.data !== undefined && kiosk === null));
  useEffect(() => {
    if (!noKiosk) return;
    notifyError(NO_KIOSK_INFORMATION);
    goBack();
  }, [noKiosk, goBack]);

  const title = `Allocate Device ${name}`;
  if (device.isPending || isNotFound(device.error)) return <PageLoader />;
  // Any other failure would leave the loader for ever: say so and offer to try again.
  if (device.isError)
    return (
      <DeviceLoadError
        title={title}
        what="device"
        error={device.error}
        area="allocation"
        onRetry={() => void device.refetch()}
      />
    );
  if (group.isError && !isNotFound(group.error))
    return (
      <DeviceLoadError
        title={title}
        what="dispenser"
        error={group.error}
        area="allocation"
        onRetry={() => void group.refetch()}
      />
    );
  if (group.isPending || noKiosk || kiosk === null) return <PageLoader />;

  return (
    <>
      <PageHeader title={title} description={`At dispenser ${dispenser} of kiosk ${kiosk}`} />
      <AllocateForm
        device={name}
        kiosk={kiosk}
        dataviews={(dataviews.data?.data ?? []).map((d) => d.name)}
        loadContent={async (dataview) => (await getDataview(entity, dataview, false)).content}
        busy={allocate.isPending}
        onCancel={goBack}
        onSubmit={(request) =>
          allocate.mutate(request, {
            onSuccess: (answer) => {
              if (answer.status === 'queued') notifyWarning(answer.userMessage ?? `Device ${name} is asleep`);
              else notifySuccess(`Device ${name} allocated to ${request.visitor}`);
              void navigate('/device');
            },
            // Fleet §4: logged, and the form is enabled again; the reason is shown as well.
            onError: (error) => {
              console.error('allocation failed', error);
              notifyError('Allocation failed', error instanceof ApiError ? error.userMessage : undefined);
            },
          })
        }
        networkField={({ value, error, onChange }) => (
          <JsonInfoField
            label="Network Info"
            value={value}
            error={error ?? networkFileError}
            readOnly={allocate.isPending}
            onChange={onChange}
            onFileError={setNetworkFileError}
          />
        )}
      />
    </>
  );
}
