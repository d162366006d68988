import { z } from 'zod';
import { DeviceFilterQuerySchema } from './device.ts';
import { queryObject } from './device-view.ts';

// Health-gated progressive firmware rollouts (issue 28; docs/rollouts.md).

export const ROLLOUT_STATES = ['draft', 'running', 'paused', 'awaiting_approval', 'cancelled', 'finished'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** A device's part in a rollout. */
export const ROLLOUT_DEVICE_STATES = ['waiting', 'in_flight', 'succeeded', 'failed', 'skipped'] as const;
export type RolloutDeviceState = (typeof ROLLOUT_DEVICE_STATES)[number];

/** What a person can do to a rollout (each is an audit entry `rollout.<action>`). */
export const ROLLOUT_ACTIONS = ['start', 'pause', 'resume', 'approve', 'cancel', 'retry'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

export const ROLLOUT_DEFAULTS = {
  canary: 1,
  percents: [100],
  success_threshold_pct: 100,
  error_threshold_pct: 20,
  report_timeout_s: 3600,
  hold_s: 86_400,
  max_in_flight: 100,
  approval: false,
  soak_s: 0,
  jitter_s: 0,
} as const;

/** What a rollout delivers: a firmware version for one device type, or each device's file set through provisioning. */
export const ROLLOUT_DELIVERIES = ['firmware', 'files'] as const;
export type RolloutDelivery = (typeof ROLLOUT_DELIVERIES)[number];

const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** Whether `tz` is an IANA time zone this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}

/**
 * When a rollout may send: on `days` (0 Sunday … 6 Saturday) from `from` to `to` (HH:MM, local
 * time of `tz`). A `to` earlier than `from` spans midnight: the window opens on a listed day and
 * closes the next morning. Outside it nothing new is sent; devices in flight finish.
 */
export const RolloutWindowSchema = z
  .object({
    days: z
      .array(z.number().int().min(0).max(6))
      .min(1, 'At least one day')
      .max(7)
      .refine((d) => new Set(d).size === d.length, 'Each day once'),
    from: z.string().regex(HHMM, 'A time HH:MM'),
    to: z.string().regex(HHMM, 'A time HH:MM'),
    tz: z.string().max(64).refine(isTimeZone, 'An IANA time zone such as Europe/Paris'),
  })
  .refine((w) => w.from !== w.to, { message: 'The window must not start and end at the same time', path: ['to'] });
export type RolloutWindow = z.infer<typeof RolloutWindowSchema>;

/** A device-list query string (`group=A&type=CC1`) read with the list's filter grammar (`entity` is not a filter here). */
export function parseFilterQuery(query: string) {
  const raw = queryObject(query);
  const unknown = Object.keys(raw).find((k) => !(k in DeviceFilterQuerySchema.shape) || k === 'entity');
  if (unknown) return { success: false as const, error: `Unknown filter ${unknown}` };
  const parsed = DeviceFilterQuerySchema.safeParse(raw);
  if (parsed.success) return { success: true as const, data: parsed.data };
  return { success: false as const, error: parsed.error.issues[0]?.message ?? 'Invalid filter' };
}

/**
 * Which devices a rollout reaches, resolved to a fixed set when it starts (for firmware, only
 * devices of the firmware's type). `view` is a saved view of the device list shared with the
 * entity, by name: its filters as they are when the rollout starts.
 */
export const RolloutTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('entity') }),
  z.object({ kind: z.literal('view'), name: z.string().trim().min(1).max(64) }),
  z.object({ kind: z.literal('group'), name: z.string().trim().min(1).max(64) }),
  z.object({ kind: z.literal('site'), name: z.string().trim().min(1).max(64) }),
  z.object({
    kind: z.literal('filter'),
    query: z
      .string()
      .max(2000)
      .superRefine((q, ctx) => {
        const parsed = parseFilterQuery(q);
        if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error });
      }),
  }),
]);
export type RolloutTarget = z.infer<typeof RolloutTargetSchema>;

const percents = z
  .array(z.number().int().min(1).max(100))
  .min(1)
  .max(10)
  .refine((p) => p.every((v, i) => i === 0 || v > p[i - 1]!), 'Stage percentages must increase')
  .refine((p) => p[p.length - 1] === 100, 'The last stage must be 100 %');

const rolloutFields = {
  name: z.string().trim().min(1).max(100),
  /** `firmware` (the default) needs `firmware_id`; `files` sends each device its file set (entity, site and group files) through provisioning. */
  delivery: z.enum(ROLLOUT_DELIVERIES).default('firmware'),
  firmware_id: z.uuid('A firmware id').optional(),
  target: RolloutTargetSchema,
  canary: z.number().int().min(0).max(10_000).default(ROLLOUT_DEFAULTS.canary),
  percents: percents.default([...ROLLOUT_DEFAULTS.percents]),
  success_threshold_pct: z.number().int().min(1).max(100).default(ROLLOUT_DEFAULTS.success_threshold_pct),
  error_threshold_pct: z.number().int().min(0).max(100).default(ROLLOUT_DEFAULTS.error_threshold_pct),
  report_timeout_s: z
    .number()
    .int()
    .min(10)
    .max(7 * 86_400)
    .default(ROLLOUT_DEFAULTS.report_timeout_s),
  hold_s: z
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(ROLLOUT_DEFAULTS.hold_s),
  max_in_flight: z.number().int().min(1).max(10_000).default(ROLLOUT_DEFAULTS.max_in_flight),
  approval: z.boolean().default(ROLLOUT_DEFAULTS.approval),
  /** After each stage, how long its updated devices are watched (silent or reboot-looping: failed) before the next; 0 none. */
  soak_s: z
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(ROLLOUT_DEFAULTS.soak_s),
  /** When new sends may go out; null: any time. */
  window: RolloutWindowSchema.nullable().default(null),
  /** Each device's send is delayed by a random 0..jitter_s seconds; 0 none. */
  jitter_s: z.number().int().min(0).max(86_400).default(ROLLOUT_DEFAULTS.jitter_s),
};

type DeliveryFields = { delivery?: RolloutDelivery; firmware_id?: string | undefined };
const needsFirmware = (v: DeliveryFields, ctx: z.RefinementCtx) => {
  if ((v.delivery ?? 'firmware') === 'firmware' && !v.firmware_id)
    ctx.addIssue({ code: 'custom', message: 'A firmware id is required to deliver firmware', path: ['firmware_id'] });
  if (v.delivery === 'files' && v.firmware_id)
    ctx.addIssue({ code: 'custom', message: 'A file-set rollout takes no firmware id', path: ['firmware_id'] });
};

/** What the create form sends. */
export const RolloutCreateSchema = z.object(rolloutFields).superRefine(needsFirmware);
export type RolloutCreate = z.input<typeof RolloutCreateSchema>;
/** What the dry run takes: the same, the name optional. */
export const RolloutDryRunRequestSchema = z
  .object({ ...rolloutFields, name: rolloutFields.name.optional() })
  .superRefine(needsFirmware);

/** The dry run: how many devices the target holds, how many are skipped, and each stage's size. */
export const RolloutDryRunSchema = z.object({
  total: z.number(),
  skipped: z.number(),
  eligible: z.number(),
  stages: z.array(z.object({ label: z.string(), size: z.number() })),
});
export type RolloutDryRun = z.infer<typeof RolloutDryRunSchema>;

const counts = {
  succeeded: z.number(),
  failed: z.number(),
  in_flight: z.number(),
  waiting: z.number(),
  skipped: z.number(),
};
export const RolloutStageSchema = z.object({ index: z.number(), label: z.string(), size: z.number(), ...counts });
export type RolloutStage = z.infer<typeof RolloutStageSchema>;

export const RolloutSchema = z.object({
  id: z.string(),
  entity: z.string(),
  name: z.string(),
  delivery: z.enum(ROLLOUT_DELIVERIES),
  firmware_id: z.string().nullable(),
  /** The firmware's version and device type; null for a file-set rollout. */
  version: z.string().nullable(),
  device_type: z.string().nullable(),
  target: RolloutTargetSchema,
  canary: z.number(),
  percents: z.array(z.number()),
  success_threshold_pct: z.number(),
  error_threshold_pct: z.number(),
  report_timeout_s: z.number(),
  hold_s: z.number(),
  max_in_flight: z.number(),
  approval: z.boolean(),
  soak_s: z.number(),
  window: RolloutWindowSchema.nullable(),
  jitter_s: z.number(),
  /** While the current stage soaks: when its soak ends (ISO); null otherwise. */
  soak_until: z.string().nullable(),
  state: z.enum(ROLLOUT_STATES),
  current_stage: z.number(),
  attempt: z.number(),
  pause_reason: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  counts: z.object({ total: z.number(), ...counts }),
  stages: z.array(RolloutStageSchema),
});
export type Rollout = z.infer<typeof RolloutSchema>;

export const RolloutDeviceSchema = z.object({
  device: z.string(),
  stage: z.number().nullable(),
  attempt: z.number(),
  state: z.enum(ROLLOUT_DEVICE_STATES),
  error: z.string().nullable(),
  claimed_at: z.string().nullable(),
  settled_at: z.string().nullable(),
});
export type RolloutDevice = z.infer<typeof RolloutDeviceSchema>;

export const RolloutDevicesQuerySchema = z.object({
  state: z.enum(ROLLOUT_DEVICE_STATES).optional(),
  search: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/** Stage labels: the canary by its count, the others by their percentage. */
export function stageLabels(canary: number, percents: readonly number[]): string[] {
  return [...(canary > 0 ? [`Canary (${canary})`] : []), ...percents.map((p) => `${p} %`)];
}

/**
 * Each stage's size for `eligible` devices: the canary first (at most `canary`), then each
 * percentage as a cumulative share of all eligible devices (rounded up), less what went before.
 */
export function stageSizes(eligible: number, canary: number, percents: readonly number[]): number[] {
  const sizes: number[] = [];
  let done = 0;
  if (canary > 0) sizes.push((done = Math.min(canary, eligible)));
  for (const p of percents) {
    const upTo = Math.max(done, Math.min(eligible, Math.ceil((eligible * p) / 100)));
    sizes.push(upTo - done);
    done = upTo;
  }
  return sizes;
}
