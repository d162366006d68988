import type { Device } from '@fleet/shared/schemas/device';
import { describe, expect, it } from 'vitest';
import type { DeviceRowProps } from '@/features/devices/components/device-row.tsx';
import { DEVICE, NOW, renderDeviceRow } from '@/features/devices/components/device-row.test-helpers.ts';
import { deviceRowExtras } from './device-row-extras.tsx';

const render = (device: Device, patch: Partial<DeviceRowProps> = {}) =>
  renderDeviceRow(device, { extras: deviceRowExtras(() => undefined), ...patch });

describe("DeviceRow with the list route's extras", () => {
  it('offers Provision, says Provisioning... while the device counts as provisioning, and disables it when unresponsive', () => {
    expect(render(DEVICE)).toContain(`aria-label="Provision device ${DEVICE.name}"`);
    const busy = render({ ...DEVICE, current_provision: '11111111-1111-4111-8111-111111111111' });
    expect(busy).toContain('Provisioning...');
    expect(render({ ...DEVICE, state: { current: 'PROVISIONING' } })).toContain('Provisioning...');
    const silent = render({ ...DEVICE, updated_at: new Date(NOW - 21 * 60_000).toISOString() });
    expect(silent).toMatch(/<button[^>]*disabled[^>]*aria-label="Provision device/);
  });
});
