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
/** The band thresholds of core §9, for the database's filters and counts as well as batteryBand. */
export const BATTERY_HIGH_ABOVE = 75;
export const BATTERY_MEDIUM_ABOVE = 50;
export function batteryBand(percent: number): BatteryBand {
  if (percent > BATTERY_HIGH_ABOVE) return 'High';
  if (percent > BATTERY_MEDIUM_ABOVE) return 'Medium';
  return 'Low';
}

/** Support contact shown in the auth layout. */
export const SUPPORT_EMAIL = 'support@fleet-console.example';

/** Device states (fleet §4) and their colours (core §4); anything else is neutral grey. */
export const DEVICE_STATES = [
  'ALLOCATED',
  'PROVISIONING',
  'DFU',
  'ERROR',
  'DEFECT',
  'UNAVAILABLE',
  'BOOTING',
  'WAITING',
] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];
export const STATUS_COLORS: Record<DeviceState, 'green' | 'blue' | 'red' | 'yellow'> = {
  ALLOCATED: 'green',
  PROVISIONING: 'blue',
  DFU: 'blue',
  ERROR: 'red',
  DEFECT: 'red',
  UNAVAILABLE: 'red',
  BOOTING: 'yellow',
  WAITING: 'yellow',
};
/** The colour of a status value: one of the table above, or grey. */
export function statusColor(state: string | null | undefined): 'green' | 'blue' | 'red' | 'yellow' | 'gray' {
  return (state && STATUS_COLORS[state as DeviceState]) || 'gray';
}

/** Battery filter choices: the three bands plus Charging (core §9). */
export const BATTERY_FILTERS = ['High', 'Medium', 'Low', 'Charging'] as const;
export type BatteryFilter = (typeof BATTERY_FILTERS)[number];

/** Creation-date range filters (core §9), with their length in hours. */
export const DATE_RANGES = {
  '24h': { label: '24 hours', hours: 24 },
  '3d': { label: '3 days', hours: 72 },
  '1w': { label: '1 week', hours: 168 },
  '30d': { label: '30 days', hours: 720 },
  '90d': { label: '90 days', hours: 2160 },
  '180d': { label: '180 days', hours: 4320 },
  '365d': { label: '365 days', hours: 8760 },
} as const;
export type DateRange = keyof typeof DATE_RANGES;

/** File size limits in bytes (fleet §5). */
export const FILE_LIMITS = {
  certificate: 100_000,
  jsonInfo: 100_000,
  dataview: 1_000_000,
  siteOrGroupUpload: 10_000_000,
  /** Entity-level file and firmware uploads: the same as sites and groups (docs/decisions.md). */
  entityUpload: 10_000_000,
} as const;

/** The spec's over-limit message (fleet §5). */
export const fileTooBig = (n: number) => `File is too big. Only files up to ${n} Bytes are allowed.`;

/** CSV bulk upload: rows accepted in one file (the spec leaves the maximum open; docs/decisions.md). */
export const CSV_MAX_ROWS = 5_000;

/** Dataviews (fleet §9): builder grid, landlord list page sizes, list refresh. */
export const DATAVIEW_GRID = { cols: 3, maxRows: 4, rowHeight: 125 } as const;
export const DATAVIEW_PAGE_SIZES = [10, 15, 20, 50] as const;
export const DATAVIEW_PAGE_SIZE_DEFAULT = 15;
export const DATAVIEW_LIST_REFRESH_MS = 30_000;
/** What the builder's palette places (docs/decisions.md, "Dataview content, format 1"). */
export const DATAVIEW_WIDGETS = ['text', 'metric', 'chart', 'image', 'button'] as const;
export type DataviewWidget = (typeof DATAVIEW_WIDGETS)[number];
