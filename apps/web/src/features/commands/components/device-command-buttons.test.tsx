// @vitest-environment happy-dom
import type { Device } from '@fleet/shared/schemas/device';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aCommand, aDevice } from '@/lib/device/test-fixtures.ts';
import { renderUi, signInAs, stubApi } from '@/test/render.tsx';
import { DeviceCommandButtons } from './device-command-buttons.tsx';

const DEVICE = aDevice();
const COMMAND_URL = `/api/v1/tenant/acme/mqtt/general/${DEVICE.name}`;

function render(device: Device) {
  signInAs();
  const calls = stubApi(({ body }) => {
    const type = (body as { payload?: { type?: string } } | undefined)?.payload?.type ?? 'refresh';
    return { body: { status: 'success', data: aCommand({ type: type as 'refresh' }) } };
  });
  const rendered = renderUi(<DeviceCommandButtons device={device} />);
  const buttons = () =>
    screen.getAllByRole('button').map((b) => ({ label: b.textContent, disabled: b.hasAttribute('disabled') }));
  const commandsSent = () => calls.filter((c) => c.url === COMMAND_URL).map((c) => c.body);
  return { ...rendered, buttons, commandsSent };
}

describe('DeviceCommandButtons', () => {
  it('offers Refresh, Vibrate and Reboot to a responsive device', () => {
    expect(render(DEVICE).buttons()).toEqual([
      { label: 'Refresh', disabled: false },
      { label: 'Vibrate', disabled: false },
      { label: 'Reboot', disabled: false },
    ]);
  });

  it('disables them for an unresponsive device and says why', () => {
    const stale = { ...DEVICE, updated_at: new Date(Date.now() - 21 * 60_000).toISOString() };
    const { buttons } = render(stale);
    expect(buttons().map((b) => b.disabled)).toEqual([true, true, true]);
    expect(screen.getByText('Unresponsive — commands are disabled')).toBeTruthy();
  });

  it('keeps them for a sleeping device, noting that commands wait', () => {
    const { buttons } = render({ ...DEVICE, online: false });
    expect(buttons().map((b) => b.disabled)).toEqual([false, false, false]);
    expect(screen.getByText('Asleep — commands wait until it wakes')).toBeTruthy();
  });

  it('sends Vibrate at once', async () => {
    const { user, commandsSent } = render(DEVICE);
    await user.click(screen.getByRole('button', { name: 'Vibrate' }));
    await vi.waitFor(() => expect(commandsSent()).toEqual([{ payload: { type: 'vibrate', song: 'V10' } }]));
  });

  it('asks before Reboot: Cancel sends nothing, Reboot in the dialog sends it', async () => {
    const { user, commandsSent } = render(DEVICE);
    await user.click(screen.getByRole('button', { name: 'Reboot' }));
    let dialog = within(screen.getByRole('dialog', { name: `Reboot ${DEVICE.name}?` }));
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(commandsSent()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Reboot' }));
    dialog = within(screen.getByRole('dialog', { name: `Reboot ${DEVICE.name}?` }));
    await user.click(dialog.getByRole('button', { name: 'Reboot' }));
    await vi.waitFor(() => expect(commandsSent()).toEqual([{ payload: { type: 'reboot' } }]));
  });
});
