import type { Device } from '@fleet/shared/schemas/device';
import { isUnresponsive } from './device-health.ts';

/** The tooltip of the Asleep pill, and the note over a sleeping device's commands. */
export const ASLEEP_HINT = 'Asleep — commands wait until it wakes';
/** The same for a device registered but never heard from. */
export const NOT_CONNECTED_HINT = 'Not connected yet — commands wait until it first connects';
/** Why an unresponsive device's commands are disabled (core §4). */
export const UNRESPONSIVE_HINT = 'Unresponsive — commands are disabled';

/** Whether commands may be sent to a device now, and what the user should know about them. */
export interface CommandAvailability {
  enabled: boolean;
  /** Connected devices have nothing to say; sleeping and unresponsive ones do. */
  note: string | null;
  /** Responsive but disconnected: a command is held until the device wakes (202). */
  asleep: boolean;
  /** Asleep because it has never connected (its last sign of life is its registration). */
  neverConnected: boolean;
}

/**
 * Commands are disabled for a device with no sign of life for 20 minutes (core §4). A responsive
 * device that is not connected sleeps: commands to it are accepted and held until it wakes.
 */
export function commandAvailability(
  device: Pick<Device, 'updated_at' | 'created_at' | 'online'>,
  now: number,
): CommandAvailability {
  if (isUnresponsive(device.updated_at, now)) {
    return { enabled: false, note: UNRESPONSIVE_HINT, asleep: false, neverConnected: false };
  }
  if (device.online) return { enabled: true, note: null, asleep: false, neverConnected: false };
  // Edits are not signs of life, so an untouched last-seen time means the device never reported.
  const neverConnected = device.updated_at === device.created_at;
  return { enabled: true, note: neverConnected ? NOT_CONNECTED_HINT : ASLEEP_HINT, asleep: true, neverConnected };
}
