import { useMemo } from 'react';
import type { Device } from '@fleet/shared/schemas/device';
import { CommandMenuItems } from '@/features/commands/components/command-menu-items.tsx';
import type { ConsoleCommand } from '@/features/commands/utils/command-actions.ts';
import type { DeviceRowExtras } from '@/features/devices/components/device-row.tsx';
import { CancelProvisionItem, ProvisionButton } from '@/features/provisioning/components/provision-button.tsx';

/**
 * A device row's parts from the other features (core §2): the Provision button beside the menu,
 * the commands and Cancel provisioning in it. Unresponsive devices get them disabled (core §4).
 */
export function deviceRowExtras(onCommand: (device: Device, action: ConsoleCommand) => void): DeviceRowExtras {
  return {
    actions: (device, { unresponsive, availability }) => (
      <ProvisionButton
        device={device}
        disabled={unresponsive}
        connection={availability.neverConnected ? 'never' : availability.asleep ? 'asleep' : 'online'}
      />
    ),
    menuItems: (device, { availability, busy, unresponsive }) => (
      <>
        <CommandMenuItems availability={availability} busy={busy} onCommand={(action) => onCommand(device, action)} />
        <CancelProvisionItem device={device} disabled={unresponsive} />
      </>
    ),
  };
}

/** The same, one object while `onCommand` stays the same (rows are memoised). */
export function useDeviceRowExtras(onCommand: (device: Device, action: ConsoleCommand) => void): DeviceRowExtras {
  return useMemo(() => deviceRowExtras(onCommand), [onCommand]);
}
