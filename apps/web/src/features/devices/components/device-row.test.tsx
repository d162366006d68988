// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '@/test/render.tsx';
import { DEVICE, NOW, renderDeviceRow as render } from './device-row.test-helpers.tsx';

const MENU = `Actions for device ${DEVICE.name}`;
const menuItems = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

describe('DeviceRow', () => {
  it('shows the name linking to the device, its group, firmware, status and battery', () => {
    const { row } = render({ ...DEVICE, group: 'lobby', description: 'By the door' });
    const cells = within(row);
    expect(cells.getByRole('link', { name: DEVICE.name }).getAttribute('href')).toBe(`/device/${DEVICE.name}`);
    expect(row.textContent).toContain('By the door');
    expect(row.textContent).toContain('lobby');
    expect(row.textContent).toContain('1.2.0');
    expect(row.textContent).toContain('ALLOCATED');
    expect(row.textContent).toContain('80%');
    expect(row.textContent).not.toContain('acme');
  });

  it('marks a sleeping responsive device Asleep, telling screen readers that commands wait', () => {
    const { row } = render({ ...DEVICE, online: false });
    expect(row.textContent).toContain('Asleep');
    expect(row.textContent).toContain(': commands wait until it wakes');
  });

  it('does not mark a connected device Asleep', () => {
    expect(render(DEVICE).row.textContent).not.toContain('Asleep');
  });

  it('marks an unresponsive device Unresponsive, not Asleep', () => {
    const { row } = render({ ...DEVICE, online: false, updated_at: new Date(NOW - 30 * 60_000).toISOString() });
    expect(row.textContent).toContain('Unresponsive');
    expect(row.textContent).not.toContain('Asleep');
    expect(row.getAttribute('data-unresponsive')).toBe('true');
  });

  it('names the row menu target for its device', () => {
    expect(render(DEVICE).getByRole('button', { name: MENU }).getAttribute('aria-busy')).toBeNull();
  });

  it('marks the menu target busy while a command is in flight', () => {
    expect(render(DEVICE, { busy: true }).getByRole('button', { name: MENU }).getAttribute('aria-busy')).toBe('true');
  });

  it('offers a reader View, Allocate and Return Device, and no Delete', async () => {
    signInAs({ subtype: 'operator', permissions: ['Group_all'] });
    const { user } = render(DEVICE);
    await user.click(screen.getByRole('button', { name: MENU }));
    expect(menuItems()).toEqual(['View', 'Allocate', 'Return Device']);
    expect(screen.getByRole('menuitem', { name: 'Allocate' }).getAttribute('href')).toBe(
      `/device/${DEVICE.name}/allocate`,
    );
  });

  it('offers a reader without Group_all neither Allocate nor Return Device (the server would refuse them)', async () => {
    signInAs({ subtype: 'operator', permissions: ['Group_read'] });
    const { user } = render(DEVICE);
    await user.click(screen.getByRole('button', { name: MENU }));
    expect(menuItems()).toEqual(['View']);
  });

  it('offers a writer Edit and Delete, and Delete asks for the device to go', async () => {
    signInAs({ subtype: 'admin', permissions: ['all'] });
    const { user, props } = render(DEVICE, { writable: true });
    await user.click(screen.getByRole('button', { name: MENU }));
    expect(menuItems()).toEqual(['Edit', 'Allocate', 'Return Device', 'Delete']);
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(props.onDelete).toHaveBeenCalledWith(DEVICE);
  });

  it("shows the landlord the device's entity, without the kiosk manager's Allocate and Return", async () => {
    const { user, row } = render(DEVICE, { landlord: true, writable: true });
    expect(row.textContent).toContain('acme');
    await user.click(screen.getByRole('button', { name: MENU }));
    expect(menuItems()).toEqual(['Edit', 'Delete']);
  });

  it('selects the device with its checkbox', async () => {
    const { user, props } = render(DEVICE, { selected: false });
    await user.click(screen.getByRole('checkbox', { name: `Select device ${DEVICE.name}` }));
    expect(props.onSelect).toHaveBeenCalledWith(DEVICE.name, true);
  });
});
