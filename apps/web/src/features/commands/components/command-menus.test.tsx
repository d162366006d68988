// @vitest-environment happy-dom
import { Button, Menu } from '@mantine/core';
import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { commandAvailability } from '@/lib/device/command-availability.ts';
import { renderUi } from '@/test/render.tsx';
import { CommandMenuItems } from './command-menu-items.tsx';
import { MultiDeviceMenu } from './multi-device-menu.tsx';

/** The menu's items as a user finds them once it is open: label and whether it can be chosen. */
const menuItems = () =>
  screen.getAllByRole('menuitem').map((item) => ({
    label: item.textContent,
    disabled: item.hasAttribute('disabled') || item.getAttribute('data-disabled') === 'true',
  }));

async function openMenu(items: ReactNode) {
  const rendered = renderUi(
    <Menu>
      <Menu.Target>
        <Button>open</Button>
      </Menu.Target>
      <Menu.Dropdown>{items}</Menu.Dropdown>
    </Menu>,
  );
  await rendered.user.click(screen.getByRole('button', { name: 'open' }));
  return rendered;
}

const NOW = Date.parse('2026-11-22T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();
async function rowMenu(updatedMinutesAgo: number, online: boolean, busy = false) {
  const onCommand = vi.fn();
  const availability = commandAvailability(
    { updated_at: minutesAgo(updatedMinutesAgo), created_at: minutesAgo(24 * 60), online },
    NOW,
  );
  const rendered = await openMenu(<CommandMenuItems availability={availability} busy={busy} onCommand={onCommand} />);
  return { ...rendered, onCommand };
}

describe('row command items', () => {
  it('offers Refresh, Vibrate, Update Firmware and Reboot, and passes the chosen one on', async () => {
    const { user, onCommand } = await rowMenu(1, true);
    expect(menuItems()).toEqual([
      { label: 'Refresh', disabled: false },
      { label: 'Vibrate', disabled: false },
      { label: 'Update Firmware', disabled: false },
      { label: 'Reboot', disabled: false },
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Update Firmware' }));
    expect(onCommand).toHaveBeenCalledWith('dfu');
  });

  it('disables every command of an unresponsive device and says why', async () => {
    await rowMenu(25, true);
    expect(menuItems().every((item) => item.disabled)).toBe(true);
    expect(screen.getByText('Unresponsive — commands are disabled')).toBeTruthy();
  });

  it('keeps the commands of a sleeping device, noting they wait', async () => {
    await rowMenu(2, false);
    expect(menuItems().filter((item) => !item.disabled)).toHaveLength(4);
    expect(screen.getByText('Asleep — commands wait until it wakes')).toBeTruthy();
  });

  it('allows no second command while one is in flight', async () => {
    const { user, onCommand } = await rowMenu(1, true, true);
    expect(menuItems().every((item) => item.disabled)).toBe(true);
    expect(screen.getByText('Command in progress…')).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Refresh' }));
    expect(onCommand).not.toHaveBeenCalled();
  });
});

describe('Multi-Device Action menu', () => {
  async function open(writable: boolean, vibrateAllLabel: string | null) {
    const handlers = {
      onCommandSelected: vi.fn(),
      onVibrateAll: vi.fn(),
      onDeleteSelected: vi.fn(),
      onDeleteAll: vi.fn(),
    };
    const rendered = renderUi(
      <MultiDeviceMenu
        selectedCount={2}
        writable={writable}
        vibrateAllLabel={vibrateAllLabel}
        allScope=""
        busy={false}
        {...handlers}
      />,
    );
    await rendered.user.click(screen.getByRole('button', { name: 'Multi-Device Action' }));
    return { ...rendered, ...handlers, labels: menuItems().map((item) => item.label) };
  }

  it('offers the commands to a reader, without the deletions', async () => {
    const { labels } = await open(false, 'Vibrate all devices');
    expect(screen.getByText('2 selected')).toBeTruthy();
    expect(labels).toEqual([
      'Refresh selected',
      'Vibrate selected',
      'Update Firmware selected',
      'Reboot selected',
      'Vibrate all devices',
    ]);
  });

  it('offers a writer the deletions too', async () => {
    const { labels } = await open(true, 'Vibrate all devices');
    expect(labels).toEqual([
      'Refresh selected',
      'Vibrate selected',
      'Update Firmware selected',
      'Reboot selected',
      'Delete selected',
      'Vibrate all devices',
      'Delete all devices',
    ]);
  });

  it('hides the entity-wide vibrate without one entity to address', async () => {
    const { labels } = await open(false, null);
    expect(labels).not.toContain('Vibrate all devices');
    expect(labels).toEqual(['Refresh selected', 'Vibrate selected', 'Update Firmware selected', 'Reboot selected']);
  });

  it('passes the chosen action on', async () => {
    const { user, onCommandSelected, onVibrateAll } = await open(true, 'Vibrate all devices');
    await user.click(screen.getByRole('menuitem', { name: 'Reboot selected' }));
    expect(onCommandSelected).toHaveBeenCalledWith('reboot');
    await user.click(screen.getByRole('button', { name: 'Multi-Device Action' }));
    await user.click(screen.getByRole('menuitem', { name: 'Vibrate all devices' }));
    expect(onVibrateAll).toHaveBeenCalledOnce();
  });
});
