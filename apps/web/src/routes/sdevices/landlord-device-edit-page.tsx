import { DeviceEditView } from '../device/device-edit-view.tsx';

/** /sdevices/{name}: the landlord's device edit (fleet §2). */
export function LandlordDeviceEditPage() {
  return <DeviceEditView landlord />;
}
