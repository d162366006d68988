import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider, Menu } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { commandAvailability } from '@/lib/device/command-availability.ts';
import { CommandMenuItems } from './command-menu-items.tsx';
import { MultiDeviceItems } from './multi-device-menu.tsx';

// Menus rendered open on the server: which items exist and which are disabled, without a DOM.
function openMenu(items: ReactNode): string {
  return renderToStaticMarkup(
    createElement(
      MantineProvider,
      null,
      createElement(
        Menu,
        { opened: true, withinPortal: false, transitionProps: { duration: 0 } },
        createElement(Menu.Target, null, createElement('button', null, 'open')),
        createElement(Menu.Dropdown, null, items),
      ),
    ),
  );
}

function menuItems(html: string): { label: string; disabled: boolean }[] {
  return [...html.matchAll(/<button([^>]*role="menuitem"[^>]*)>([\s\S]*?)<\/button>/g)].map(
    ([, attrs = '', inner = '']) => ({
      label: inner
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
      disabled: /\sdisabled=""/.test(attrs) || /data-disabled="true"/.test(attrs),
    }),
  );
}

const NOW = Date.parse('2026-11-22T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();
const rowMenu = (updatedMinutesAgo: number, online: boolean, busy = false) =>
  openMenu(
    createElement(CommandMenuItems, {
      availability: commandAvailability(
        { updated_at: minutesAgo(updatedMinutesAgo), created_at: minutesAgo(24 * 60), online },
        NOW,
      ),
      busy,
      onCommand: () => undefined,
    }),
  );

describe('row command items', () => {
  it('offers Refresh, Vibrate, Update Firmware and Reboot', () => {
    expect(menuItems(rowMenu(1, true))).toEqual([
      { label: 'Refresh', disabled: false },
      { label: 'Vibrate', disabled: false },
      { label: 'Update Firmware', disabled: false },
      { label: 'Reboot', disabled: false },
    ]);
  });

  it('disables every command of an unresponsive device and says why', () => {
    const html = rowMenu(25, true);
    expect(menuItems(html).every((item) => item.disabled)).toBe(true);
    expect(html).toContain('Unresponsive — commands are disabled');
  });

  it('keeps the commands of a sleeping device, noting they wait', () => {
    const html = rowMenu(2, false);
    expect(menuItems(html).filter((item) => !item.disabled)).toHaveLength(4);
    expect(html).toContain('Asleep — commands wait until it wakes');
  });

  it('allows no second command while one is in flight', () => {
    const html = rowMenu(1, true, true);
    expect(menuItems(html).every((item) => item.disabled)).toBe(true);
    expect(html).toContain('Command in progress…');
  });
});

describe('Multi-Device Action items', () => {
  const menu = (writable: boolean, vibrateAllLabel: string | null) =>
    menuItems(
      openMenu(
        createElement(MultiDeviceItems, {
          selectedCount: 0,
          writable,
          onCommandSelected: () => undefined,
          vibrateAllLabel,
          onVibrateAll: () => undefined,
          onDeleteSelected: () => undefined,
          onDeleteAll: () => undefined,
          allScope: '',
        }),
      ),
    ).map((item) => item.label);

  it('offers the commands to every role and the deletions to writers', () => {
    expect(menu(false, 'Vibrate all devices')).toEqual([
      'Refresh selected',
      'Vibrate selected',
      'Update Firmware selected',
      'Reboot selected',
      'Vibrate all devices',
    ]);
    expect(menu(true, 'Vibrate all devices')).toEqual([
      'Refresh selected',
      'Vibrate selected',
      'Update Firmware selected',
      'Reboot selected',
      'Delete selected',
      'Vibrate all devices',
      'Delete all devices',
    ]);
  });

  it('hides the entity-wide vibrate without one entity to address', () => {
    expect(menu(false, null)).not.toContain('Vibrate all devices');
  });
});
