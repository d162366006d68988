import { Menu } from '@mantine/core';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { CommandAvailability } from '@/lib/device/command-availability.ts';
import type { ConsoleCommand } from '../utils/command-actions.ts';
import { CommandIcon } from './command-icons.tsx';

interface CommandMenuItemsProps {
  availability: CommandAvailability;
  /** A command to this device is in flight: no second one until it settles. */
  busy: boolean;
  onCommand(action: ConsoleCommand): void;
}

/**
 * The command part of a device's row menu (core §2): Refresh, Vibrate, Update Firmware, Reboot.
 * Disabled for unresponsive devices, with the reason above them; a sleeping device's note says
 * its commands are held (a firmware update too).
 */
export function CommandMenuItems({ availability, busy, onCommand }: CommandMenuItemsProps) {
  const disabled = !availability.enabled || busy;
  const note = busy ? 'Command in progress…' : availability.note;
  const item = (action: ConsoleCommand) => (
    <Menu.Item leftSection={<CommandIcon action={action} />} disabled={disabled} onClick={() => onCommand(action)}>
      {COMMAND_LABELS[action]}
    </Menu.Item>
  );
  return (
    <>
      {note && <Menu.Label>{note}</Menu.Label>}
      {item('refresh')}
      {item('vibrate')}
      {item('dfu')}
      {item('reboot')}
    </>
  );
}
