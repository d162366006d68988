import { useEntities } from '@/features/entities/api/get-entities.ts';
import { DeviceCreateView } from '../device/device-create-view.tsx';

/** /sdevices/new: a device in any entity, chosen on the form (fleet §2). */
export function LandlordDeviceNewPage() {
  const entities = useEntities();
  return <DeviceCreateView landlord entities={{ choices: entities.data, loading: entities.isPending }} />;
}
