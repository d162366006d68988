import { DeviceCreateView } from './device-create-view.tsx';

/** /device/new: a device in the active entity (fleet §2). */
export function DeviceNewPage() {
  return <DeviceCreateView landlord={false} />;
}
