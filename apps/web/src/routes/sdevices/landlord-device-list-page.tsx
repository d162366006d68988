import { DeviceListView } from '../device/device-list-view.tsx';

/** /sdevices: every entity's devices, for the landlord (core §2). */
export function LandlordDeviceListPage() {
  return <DeviceListView landlord />;
}
