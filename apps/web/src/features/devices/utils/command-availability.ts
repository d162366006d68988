import type { Device } from '@fleet/shared/schemas/device';
import { isUnresponsive } from './device-health.ts';

/** The tooltip of the Asleep pill, and the note over a sleeping device's commands. */
export const ASLEEP_HINT = 'Asleep — commands wait until it wakes';
/** Why an unresponsive device's commands are disabled (core §4). */
export const UNRESPONSIVE_HINT = 'Unresponsive — commands are disabled';

/** Whether commands may be sent to a device now, and what the user should know about them. */
export interface CommandAvailability {
  enabled: boolean;
  /** Connected devices have nothing to say; sleeping and unresponsive ones do. */
  note: string | null;
  /** Responsive but disconnected: a command is held until the device wakes (202). */
  asleep: boolean;
}

/**
 * Commands are disabled for a device with no sign of life for 20 minutes (core §4). A responsive
 * device that is not connected sleeps: commands to it are accepted and held until it wakes.
 */
export function commandAvailability(device: Pick<Device, 'updated_at' | 'online'>, now: number): CommandAvailability {
  if (isUnresponsive(device.updated_at, now)) return { enabled: false, note: UNRESPONSIVE_HINT, asleep: false };
  if (!device.online) return { enabled: true, note: ASLEEP_HINT, asleep: true };
  return { enabled: true, note: null, asleep: false };
}
