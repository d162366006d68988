import { SONG_ALL_DEVICES } from '@fleet/shared/protocol';

/** What a confirmation asks, e.g. 'Reboot 240ac40a2e48?'. */
export interface ConfirmRequest {
  title: string;
  text: string;
  /** The confirm button, e.g. 'Reboot'. */
  confirm: string;
}

const INTERRUPTS = 'whatever it is doing is interrupted and it is out of reach until it is back';

/** Asks before rebooting one device. */
export function confirmReboot(device: string): ConfirmRequest {
  return {
    title: `Reboot ${device}?`,
    text: `The device restarts: ${INTERRUPTS}. A sleeping device reboots when it wakes.`,
    confirm: 'Reboot',
  };
}

/** Asks before rebooting the responsive devices of a selection. */
export function confirmRebootSelected(count: number, skipped: number): ConfirmRequest {
  const one = count === 1;
  const skip = skipped > 0 ? ` ${skipped} unresponsive selected device${skipped === 1 ? ' is' : 's are'} skipped.` : '';
  return {
    title: one ? 'Reboot 1 device?' : `Reboot ${count} devices?`,
    text: `Each device restarts: ${INTERRUPTS}.${skip}`,
    confirm: one ? 'Reboot' : `Reboot ${count}`,
  };
}

/** Asks before updating one device's firmware. */
export function confirmFirmware(device: string): ConfirmRequest {
  return {
    title: `Update the firmware of ${device}?`,
    text: `The device downloads the newest firmware for its type and restarts on it: ${INTERRUPTS}. A sleeping device updates when it wakes.`,
    confirm: 'Update Firmware',
  };
}

/** Asks before updating the firmware of the responsive devices of a selection. */
export function confirmFirmwareSelected(count: number, skipped: number): ConfirmRequest {
  const one = count === 1;
  const skip = skipped > 0 ? ` ${skipped} unresponsive selected device${skipped === 1 ? ' is' : 's are'} skipped.` : '';
  return {
    title: one ? 'Update the firmware of 1 device?' : `Update the firmware of ${count} devices?`,
    text: `Each device gets the newest firmware for its type (its group's, else its site's, else the entity's) and restarts on it.${skip}`,
    confirm: 'Update Firmware',
  };
}

/** The confirmation of an interrupting command to one device. */
export const confirmOne = (action: 'reboot' | 'dfu', device: string) =>
  action === 'dfu' ? confirmFirmware(device) : confirmReboot(device);

/** The confirmation of an interrupting command to a selection. */
export const confirmSelected = (action: 'reboot' | 'dfu', count: number, skipped: number) =>
  action === 'dfu' ? confirmFirmwareSelected(count, skipped) : confirmRebootSelected(count, skipped);

/** Asks before every device of an entity vibrates. */
export function confirmVibrateAll(entity: string): ConfirmRequest {
  return {
    title: `Vibrate every device of ${entity}?`,
    text: `Every device of ${entity} plays vibration ${SONG_ALL_DEVICES}; sleeping devices play it when they wake.`,
    confirm: 'Vibrate all',
  };
}
