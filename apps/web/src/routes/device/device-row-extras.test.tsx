// @vitest-environment happy-dom
import type { Device } from '@fleet/shared/schemas/device';
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DeviceRowProps } from '@/features/devices/components/device-row.tsx';
import { DEVICE, NOW, renderDeviceRow } from '@/features/devices/components/device-row.test-helpers.tsx';
import { signInAs } from '@/test/render.tsx';
import { deviceRowExtras } from './device-row-extras.tsx';

function render(device: Device, patch: Partial<DeviceRowProps> = {}) {
  const onCommand = vi.fn();
  return { onCommand, ...renderDeviceRow(device, { extras: deviceRowExtras(onCommand), ...patch }) };
}

const provision = (name: string) => screen.getByRole('button', { name });
const stale = { ...DEVICE, updated_at: new Date(NOW - 21 * 60_000).toISOString() };

describe("DeviceRow with the list route's extras", () => {
  it('offers Provision, says Provisioning... while the device counts as provisioning, and disables it when unresponsive', () => {
    render(DEVICE);
    expect(provision(`Provision device ${DEVICE.name}`).hasAttribute('disabled')).toBe(false);
    const provisioning = [
      { ...DEVICE, current_provision: '11111111-1111-4111-8111-111111111111' },
      { ...DEVICE, state: { current: 'PROVISIONING' } },
    ];
    for (const device of provisioning) {
      cleanup();
      render(device);
      expect(provision(`Provisioning... device ${DEVICE.name}`).textContent).toBe('Provisioning...');
    }
    cleanup();
    render(stale);
    expect(provision(`Provision device ${DEVICE.name}`).hasAttribute('disabled')).toBe(true);
  });

  it("puts the commands in the row's menu and passes the chosen one on with its device", async () => {
    // Allocate and Return Device follow the access rule (Group_all): an admin with all access.
    signInAs({ subtype: 'admin', permissions: ['all'] });
    const { user, onCommand } = render(DEVICE);
    await user.click(screen.getByRole('button', { name: `Actions for device ${DEVICE.name}` }));
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual([
      'View',
      'Refresh',
      'Vibrate',
      'Update Firmware',
      'Reboot',
      'Cancel provisioning',
      'Allocate',
      'Return Device',
    ]);
    expect(screen.getByRole('menuitem', { name: 'Cancel provisioning' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('menuitem', { name: 'Reboot' }));
    expect(onCommand).toHaveBeenCalledWith(DEVICE, 'reboot');
  });

  it("disables an unresponsive device's commands in its menu", async () => {
    const { user, onCommand } = render(stale);
    await user.click(screen.getByRole('button', { name: `Actions for device ${DEVICE.name}` }));
    expect(screen.getByText('Unresponsive — commands are disabled')).toBeTruthy();
    for (const name of ['Refresh', 'Vibrate', 'Update Firmware', 'Reboot'])
      expect(screen.getByRole('menuitem', { name }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('menuitem', { name: 'Reboot' }));
    expect(onCommand).not.toHaveBeenCalled();
  });

  it('disables Provision on a sleeping or never-connected device and says why, while its commands stay (held)', async () => {
    const asleep = { ...DEVICE, online: false, created_at: new Date(NOW - 3_600_000).toISOString() };
    const never = { ...DEVICE, online: false, created_at: DEVICE.updated_at };
    const cases = [
      [asleep, /^Asleep — provisioning needs the device connected/],
      [never, /^Not connected yet — provisioning needs the device connected/],
    ] as const;
    for (const [device, hint] of cases) {
      cleanup();
      const { user } = render(device);
      const button = provision(`Provision device ${DEVICE.name}`);
      expect(button.hasAttribute('disabled')).toBe(true);
      await user.hover(button.parentElement!);
      expect(await screen.findByText(hint)).toBeTruthy();
      await user.click(screen.getByRole('button', { name: `Actions for device ${DEVICE.name}` }));
      expect(screen.getByRole('menuitem', { name: 'Vibrate' }).hasAttribute('disabled')).toBe(false);
    }
    // A session already running on it still opens its modal.
    cleanup();
    render({ ...asleep, state: { current: 'PROVISIONING' } });
    expect(provision(`Provisioning... device ${DEVICE.name}`).hasAttribute('disabled')).toBe(false);
  });
});
