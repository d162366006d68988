/** Business constants of the console (spec: console-core §9, console-fleet §9). */

/** Account subtypes; only sadmin is a landlord (core §6). */
export const SUBTYPES = ['sadmin', 'admin', 'operator', 'infra', 'developer'] as const;
export type Subtype = (typeof SUBTYPES)[number];

/** Fine-grained access values; `all` means all access (core §6). */
export const ACCESS_VALUES = [
  'all',
  'Dataview_read',
  'Dataview_all',
  'Site_read',
  'Site_all',
  'Group_read',
  'Group_all',
] as const;
export type AccessValue = (typeof ACCESS_VALUES)[number];

export const PASSWORD_MIN_LENGTH = 6;

/** Token refresh scheduling (core §4). */
export const REFRESH = {
  initialFraction: 0.7,
  safetyMarginMs: 5_000,
  floorMs: 5_000,
  adaptAfter: 5,
  historySize: 10,
  adaptFactor: 0.9,
  minFraction: 0.1,
  maxFraction: 0.9,
  retryStepMs: 5_000,
  retryMaxMs: 30_000,
  maxFailures: 3,
  /** Token expiry buffer (core §9): a stored token this close to expiry is refreshed at once. */
  expiryBufferMs: 5 * 60_000,
} as const;

/** Notice durations in ms (core §9). */
export const NOTICE_MS = { success: 2_000, error: 4_000 } as const;

/** Devices (core §9). */
export const UNRESPONSIVE_AFTER_MS = 20 * 60_000;
export const JUST_NOW_MS = 5_000;
export const DEVICE_PAGE_SIZES = [10, 20, 50] as const;
export const DEVICE_PAGE_SIZE_DEFAULT = 20;
export const DEVICE_LIST_REFRESH_MS = 30_000;
export const DEVICE_TYPES = ['CC1', 'CC2'] as const;
export const DEFAULT_FIRMWARE_DEVICE_TYPE = 'CC2';
export const DEFAULT_NEW_DEVICE_TYPE = 'CC1';
export const LICENSE_TIERS = ['basic', 'pro'] as const;

/** Battery bands: above 75 High, above 50 Medium, else Low (core §9). */
export type BatteryBand = 'High' | 'Medium' | 'Low';
export function batteryBand(percent: number): BatteryBand {
  if (percent > 75) return 'High';
  if (percent > 50) return 'Medium';
  return 'Low';
}

/** Support contact shown in the auth layout. */
export const SUPPORT_EMAIL = 'support@fleet-console.example';
