import { DeviceListView } from './device-list-view.tsx';

/** /device: the active entity's devices (core §2). */
export function DeviceListPage() {
  return <DeviceListView landlord={false} />;
}
