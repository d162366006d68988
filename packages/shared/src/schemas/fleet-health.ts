import { z } from 'zod';
import { BATTERY_FILTERS } from '../constants.ts';

/**
 * The windows of the fleet health screen's history, with their length and the width of one bar:
 * 7 d and 30 d are daily, read from the daily snapshot (UTC days, today's included).
 */
export const FLEET_HEALTH_WINDOWS = {
  '24h': { label: '24 h', hours: 24, bucketHours: 1 },
  '7d': { label: '7 d', hours: 168, bucketHours: 24 },
  '30d': { label: '30 d', hours: 720, bucketHours: 24 },
} as const;
export type FleetHealthWindow = keyof typeof FLEET_HEALTH_WINDOWS;
const WINDOWS = Object.keys(FLEET_HEALTH_WINDOWS) as [FleetHealthWindow, ...FleetHealthWindow[]];

/** `?window` of an entity's fleet health (24 h when absent). */
export const FleetHealthQuerySchema = z.object({
  window: z.enum(WINDOWS).default('24h'),
});
/** The superadmin's: every entity's, or one (`entity`). */
export const LandlordFleetHealthQuerySchema = FleetHealthQuerySchema.extend({
  entity: z.string().trim().min(1).max(64).optional(),
});
export type LandlordFleetHealthQuery = z.infer<typeof LandlordFleetHealthQuerySchema>;

/** What a command, firmware update or provisioning session ended as (or that it is still open). */
const OutcomeSchema = z.object({ outcome: z.string(), count: z.number().int() });

/**
 * The fleet at a glance: the figures of now (each the `total` of the device list with the matching
 * filter), and over the window the devices heard and silent per bucket, firmware updates finished
 * per version, and commands, firmware updates and provisioning sessions by outcome.
 */
export const FleetHealthSchema = z.object({
  window: z.enum(WINDOWS),
  /** The server's clock when the figures were read. */
  at: z.string(),
  devices: z.object({
    total: z.number().int(),
    /** Connected to the broker now (the list's `seen=online`). */
    online: z.number().int(),
    /** No sign of life for over 20 minutes: the list's highlight rule (`seen=unresponsive`). */
    unresponsive: z.number().int(),
    /** Never a sign of life since it was created (`seen=never`). */
    never_seen: z.number().int(),
  }),
  /** The list's battery filters; a device charging counts in its band too, one without a reading in none. */
  battery: z.array(z.object({ band: z.enum(BATTERY_FILTERS), count: z.number().int() })),
  /** Devices per state; `null` is a device that never reported one. */
  states: z.array(z.object({ state: z.string().nullable(), count: z.number().int() })),
  /** Devices per device type and firmware version (`null`: none reported). */
  firmware: z.array(z.object({ type: z.string(), version: z.string().nullable(), count: z.number().int() })),
  presence: z.object({
    bucket_s: z.number().int(),
    /** Per bucket from the hourly roll-up: devices online at some point in it, and devices that existed but were never heard in it. */
    points: z.array(z.object({ at: z.string(), online: z.number().int(), silent: z.number().int() })),
  }),
  /** Firmware updates that succeeded per bucket and version: adoption over time. */
  adoption: z.array(z.object({ at: z.string(), version: z.string(), count: z.number().int() })),
  outcomes: z.object({
    commands: z.array(OutcomeSchema),
    firmware_updates: z.array(OutcomeSchema),
    provisioning: z.array(OutcomeSchema),
  }),
});
export type FleetHealth = z.infer<typeof FleetHealthSchema>;
