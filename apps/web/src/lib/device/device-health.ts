import { UNRESPONSIVE_AFTER_MS, batteryBand, type BatteryBand } from '@fleet/shared/constants';

/**
 * True when the device's last sign of life (`updated_at`) is more than 20 minutes before `now`
 * (core §4, §9). An unreadable date counts as unresponsive: nothing proves the device is alive.
 */
export function isUnresponsive(updatedAt: string, now: number): boolean {
  const time = Date.parse(updatedAt);
  return Number.isNaN(time) || now - time > UNRESPONSIVE_AFTER_MS;
}

export type Tone = 'green' | 'yellow' | 'red' | 'blue' | 'gray';

/** The colour of each battery band (core §9): High green, Medium amber, Low red. */
export const BATTERY_TONES: Record<BatteryBand, Tone> = { High: 'green', Medium: 'yellow', Low: 'red' };

/** A battery reading's band and colour; null when the device has not reported one. */
export function batteryLook(percent: number | null): { band: BatteryBand; tone: Tone } | null {
  if (percent === null || !Number.isFinite(percent)) return null;
  const band = batteryBand(percent);
  return { band, tone: BATTERY_TONES[band] };
}
