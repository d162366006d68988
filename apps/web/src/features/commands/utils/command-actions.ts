import { REFRESH_FIELDS, SONG_ALL_DEVICES, SONG_ONE_DEVICE, type CommandType } from '@fleet/shared/protocol';
import type { CommandRequest } from '@fleet/shared/schemas/command';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';

/** A command's `{payload}` as the console sends it (refresh's fields left to the server's default). */
export type CommandRequestPayload = CommandRequest['payload'];

/** The commands the console sends from menus and buttons; allocate and return go through the kiosk manager. */
export type ConsoleCommand = Exclude<CommandType, 'allocate' | 'return'>;

/** The commands that go through `mqtt/general/…`; a firmware update has its own calls. */
export type GeneralCommand = Exclude<CommandType, 'dfu' | 'allocate' | 'return'>;

/** The commands the row menu, the Multi-Device Action menu and the device screen offer, in order. */
export const COMMAND_ACTIONS: readonly GeneralCommand[] = ['refresh', 'vibrate', 'reboot'];

/**
 * The payload for `action` (core §7): refresh asks for state, firmware version and battery (the
 * server's default fields); vibrate plays V10 on chosen devices and V101 on the entity-wide call;
 * reboot carries nothing else.
 */
export function commandPayload(action: GeneralCommand, scope: 'device' | 'entity' = 'device'): CommandRequestPayload {
  switch (action) {
    case 'refresh':
      return { type: 'refresh' };
    case 'vibrate':
      return { type: 'vibrate', song: scope === 'entity' ? SONG_ALL_DEVICES : SONG_ONE_DEVICE };
    case 'reboot':
      return { type: 'reboot' };
  }
}

/** Reboot and a firmware update interrupt whatever the device is doing: sent only after a confirmation. */
export function needsConfirmation(action: CommandType): boolean {
  return action === 'reboot' || action === 'dfu';
}

/**
 * A stored command in words for the history, e.g. 'Vibrate V10', 'Refresh', 'Refresh battery'.
 * Reads the arguments whether or not the stored payload repeats the type.
 */
export function describeCommand(type: CommandType, payload: Record<string, unknown>): string {
  const label = COMMAND_LABELS[type];
  if (type === 'vibrate' && typeof payload.song === 'string') return `${label} ${payload.song}`;
  if (type === 'dfu' && typeof payload.version === 'string') return `${label} to ${payload.version}`;
  if (type === 'refresh' && Array.isArray(payload.fields)) {
    const fields = payload.fields.filter((f): f is string => typeof f === 'string');
    const all = REFRESH_FIELDS.every((f) => fields.includes(f));
    if (fields.length > 0 && !all) return `${label} ${fields.join(', ')}`;
  }
  return label;
}
