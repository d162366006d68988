import { useNavigate } from 'react-router';
import { mayChangeDevices } from '@fleet/shared/registry-access';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { BulkUploadForm } from '@/features/device-import/components/bulk-upload-form.tsx';
import type { EntityChoice } from '@/lib/forms/entity-choice.ts';
import { useBulkUpload } from '@/features/device-import/hooks/use-bulk-upload.ts';
import { createDevice } from '@/features/devices/api/create-device.ts';
import { useEntities } from '@/features/entities/api/get-entities.ts';
import { isLandlord } from '@/lib/session/jwt.ts';
import { useGoBack } from '@/lib/navigation/use-go-back.ts';
import { useActingEntity } from '@/lib/session/use-active-entity.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { ReadOnlyNotice } from './device-create-view.tsx';

/**
 * /devices/new-multiple: devices from a CSV file (fleet §2). It serves both roles: the
 * landlord (who has no /sdevices counterpart) also chooses the entity, unless it has opened one:
 * inside an entity it adds to that entity, as its users do.
 */
export function DeviceBulkPage() {
  useDocumentTitle('Add multiple devices');
  const { claims } = useSession();
  const acting = useActingEntity();
  const landlord = isLandlord(claims) && acting === null;
  const list = landlord ? '/sdevices' : '/device';
  if (!mayChangeDevices(claims?.subtype)) return <ReadOnlyNotice title="Add multiple devices" list={list} />;
  return landlord ? <LandlordBulkUpload list={list} /> : <BulkUpload landlord={false} list={list} />;
}

function LandlordBulkUpload({ list }: { list: string }) {
  const entities = useEntities();
  return <BulkUpload landlord list={list} entities={{ choices: entities.data, loading: entities.isPending }} />;
}

interface BulkUploadProps {
  landlord: boolean;
  list: string;
  entities?: { choices: readonly EntityChoice[] | undefined; loading: boolean };
}

function BulkUpload({ landlord, list, entities }: BulkUploadProps) {
  const navigate = useNavigate();
  const goBack = useGoBack(list);
  const upload = useBulkUpload({
    landlord,
    create: (document) => createDevice(landlord, document, { notify: false }),
  });
  return (
    <>
      <PageHeader title="Add multiple devices" description="Register many devices at once from a CSV file." />
      <BulkUploadForm
        upload={upload}
        entities={entities}
        onCancel={goBack}
        onDone={() => void navigate(list, { replace: true })}
      />
    </>
  );
}
