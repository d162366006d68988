import type { CommandType } from './protocol.ts';

/** What each command is called in the console's menus, buttons and notices and the server's messages (core §2). */
export const COMMAND_LABELS: Record<CommandType, string> = {
  refresh: 'Refresh',
  vibrate: 'Vibrate',
  reboot: 'Reboot',
  dfu: 'Update Firmware',
  allocate: 'Allocate',
  return: 'Return',
};
