import { z } from 'zod';

/** Most points one telemetry answer holds; a range with more raw points is answered in buckets. */
export const MAX_TELEMETRY_POINTS = 5000;
/** The range asked for when `from` is not given: the last 24 hours before `to`. */
export const DEFAULT_TELEMETRY_RANGE_MS = 24 * 3_600_000;

/** `?from&to` of a device's telemetry (ISO times; `to` defaults to now, `from` to 24 h before it). */
export const TelemetryQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), {
    message: 'from must be before to',
    path: ['from'],
  });
export type TelemetryQuery = z.infer<typeof TelemetryQuerySchema>;

/**
 * One raw history point: the device's whole reported state after a report (`change` when the
 * state, firmware or charging changed, else `report`) or a connect (`online`) or disconnect
 * (`offline`, a goodbye or the Last Will). `at` is the receive time, `device_at` the device's clock.
 */
export const TelemetryPointSchema = z.object({
  at: z.string(),
  device_at: z.string().nullable(),
  kind: z.enum(['online', 'offline', 'change', 'report']),
  online: z.boolean(),
  state: z.string().nullable(),
  battery: z.number().int().nullable(),
  is_charging: z.boolean().nullable(),
  fw_version: z.string().nullable(),
});
export type TelemetryPoint = z.infer<typeof TelemetryPointSchema>;

/** One bucket of hourly aggregates (`bucket_s` long from `at`): battery, and seconds online, charging and in each state. */
export const TelemetryBucketSchema = z.object({
  at: z.string(),
  points: z.number().int(),
  battery_min: z.number().nullable(),
  battery_max: z.number().nullable(),
  battery_mean: z.number().nullable(),
  charging_s: z.number().int(),
  online_s: z.number().int(),
  state_s: z.record(z.string(), z.number()),
});
export type TelemetryBucket = z.infer<typeof TelemetryBucketSchema>;

/** The answer: raw `points` for a short range, else `buckets` (one of the two is empty), oldest first. */
export const TelemetrySchema = z.object({
  from: z.string(),
  to: z.string(),
  resolution: z.enum(['raw', 'hourly']),
  /** Length of a bucket in seconds (3600 or a multiple); null for raw points. */
  bucket_s: z.number().int().nullable(),
  points: z.array(TelemetryPointSchema),
  buckets: z.array(TelemetryBucketSchema),
});
export type Telemetry = z.infer<typeof TelemetrySchema>;

export const TIMELINE_TYPES = [
  'online',
  'offline',
  'state',
  'command',
  'firmware_update',
  'provisioning',
  'allocation',
  'return',
  'audit',
] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

/** `?limit&before` of a device's timeline: the `limit` newest events before `before` (ISO, exclusive). */
export const TimelineQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.iso.datetime({ offset: true }).optional(),
});
export type TimelineQuery = z.infer<typeof TimelineQuerySchema>;

/**
 * One event of a device's timeline. `data` by type: online/offline/state — the device's state,
 * battery, charging and firmware then; command and firmware_update — id, command, state (its
 * outcome), error, sent_by, replied_at (and version); provisioning — id, status, error,
 * started_by, ended_at and file counts; allocation — id, kiosk, dispenser, allocated_by, outcome;
 * return — id, returned_to, returned_by; audit — the entry's action, actor, outcome and reason.
 */
export const TimelineItemSchema = z.object({
  at: z.string(),
  type: z.enum(TIMELINE_TYPES),
  data: z.record(z.string(), z.unknown()),
});
export type TimelineItem = z.infer<typeof TimelineItemSchema>;

/** Newest first; `next_before` is the `before` of the next (older) page, null at the end. */
export const TimelineSchema = z.object({
  data: z.array(TimelineItemSchema),
  next_before: z.string().nullable(),
});
export type Timeline = z.infer<typeof TimelineSchema>;
