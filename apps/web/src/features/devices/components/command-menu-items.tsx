import { Menu, Text } from '@mantine/core';
import { IconCpu } from '@tabler/icons-react';
import type { CommandType } from '@fleet/shared/protocol';
import type { CommandAvailability } from '../utils/command-availability.ts';
import { COMMAND_LABELS } from '../utils/command-actions.ts';
import { CommandIcon } from './command-icons.tsx';

/** Said under the disabled Update Firmware item until firmware updates are built. */
export const FIRMWARE_LATER = 'Arrives with firmware support';

interface CommandMenuItemsProps {
  availability: CommandAvailability;
  /** A command to this device is in flight: no second one until it settles. */
  busy: boolean;
  onCommand(action: CommandType): void;
}

/**
 * The command part of a device's row menu (core §2): Refresh, Vibrate, Update Firmware, Reboot.
 * Disabled for unresponsive devices, with the reason above them; a sleeping device's note says
 * its commands are held. Update Firmware is shown disabled, saying when it comes.
 */
export function CommandMenuItems({ availability, busy, onCommand }: CommandMenuItemsProps) {
  const disabled = !availability.enabled || busy;
  const note = busy ? 'Command in progress…' : availability.note;
  const item = (action: CommandType) => (
    <Menu.Item leftSection={<CommandIcon action={action} />} disabled={disabled} onClick={() => onCommand(action)}>
      {COMMAND_LABELS[action]}
    </Menu.Item>
  );
  return (
    <>
      {note && <Menu.Label>{note}</Menu.Label>}
      {item('refresh')}
      {item('vibrate')}
      <Menu.Item leftSection={<IconCpu size={16} aria-hidden />} disabled>
        Update Firmware
        <Text span display="block" size="xs" c="dimmed">
          {FIRMWARE_LATER}
        </Text>
      </Menu.Item>
      {item('reboot')}
    </>
  );
}
