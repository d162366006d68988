import { DeviceEditView } from './device-edit-view.tsx';

/** /device/{name}: an entity device's edit (fleet §2). */
export function DeviceEditPage() {
  return <DeviceEditView landlord={false} />;
}
