import { z } from 'zod';
import { COMMAND_TYPES, CommandPayloadSchema, StateReportSchema } from '../protocol.ts';

/**
 * Remote commands over HTTP (core §7 `mqtt/general/…`). Each command is stored before it is
 * published and moves `queued → sent → succeeded | failed | timed_out | expired`; `queued` is also
 * how a command held for a sleeping device looks until the device wakes.
 */
export const COMMAND_STATES = ['queued', 'sent', 'succeeded', 'failed', 'timed_out', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];

/** How long a command waits for a sleeping device, unless the request says otherwise. */
export const DEFAULT_COMMAND_TTL_S = 3600;
export const MAX_COMMAND_TTL_S = 7 * 24 * 3600;
/** At most this many devices in one `mqtt/general/devices` call. */
export const MAX_BULK_COMMAND_DEVICES = 1000;

const ttl = z.number().int().min(1).max(MAX_COMMAND_TTL_S).optional();

/** POST …/mqtt/general/{device} and …/mqtt/general/entity. */
export const CommandRequestSchema = z.object({ payload: CommandPayloadSchema, expires_in_s: ttl });
export type CommandRequest = z.input<typeof CommandRequestSchema>;

/** POST …/mqtt/general/devices. */
export const BulkCommandRequestSchema = z.object({
  devices: z
    .array(z.string().min(1).max(128))
    .min(1, 'No devices selected')
    .max(MAX_BULK_COMMAND_DEVICES)
    .refine((names) => new Set(names).size === names.length, 'Each device may appear once'),
  payload: CommandPayloadSchema,
  expires_in_s: ttl,
});
export type BulkCommandRequest = z.input<typeof BulkCommandRequestSchema>;

/** One command to one device, as its history shows it. */
export const CommandSchema = z
  .object({
    id: z.uuid(),
    device: z.string(),
    entity: z.string(),
    type: z.enum(COMMAND_TYPES),
    payload: z.record(z.string(), z.unknown()),
    /** `device`, `devices` (bulk) or `entity` (every device of the entity). */
    target: z.enum(['device', 'devices', 'entity']),
    state: z.enum(COMMAND_STATES),
    sent_by: z.string(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
    replied_at: z.string().nullable(),
    expires_at: z.string(),
    /** The device's error text, or why the server gave up. */
    error: z.string().nullable(),
    /** From publication to reply, in milliseconds. */
    latency_ms: z.number().nullable(),
    /** Long work (firmware update): the device's last reported phase and percentage. */
    progress_phase: z.string().nullable(),
    progress: z.number().nullable(),
  })
  .meta({
    // Shown in the API reference (/api/docs).
    examples: [
      {
        id: '3f2b8c1e-6d4a-4f7e-9b10-2c5d8e7f9a01',
        device: 'dispenser-0042',
        entity: 'acme',
        type: 'vibrate',
        payload: { type: 'vibrate', song: 'V10' },
        target: 'device',
        state: 'succeeded',
        sent_by: 'ward_admin',
        created_at: '2026-11-28T01:50:00.000Z',
        sent_at: '2026-11-28T01:50:00.020Z',
        replied_at: '2026-11-28T01:50:00.410Z',
        expires_at: '2026-11-28T02:00:00.000Z',
        error: null,
        latency_ms: 390,
        progress_phase: null,
        progress: null,
      },
    ],
  });
export type Command = z.infer<typeof CommandSchema>;

/** 200 when the device answered success; 202 `queued` when it sleeps and the command is held. */
/** What a device said of itself in its reply to a refresh: state, firmware, battery. */
export const RefreshReportSchema = StateReportSchema.omit({ online: true, ts: true });
export type RefreshReport = z.infer<typeof RefreshReportSchema>;

export const CommandAnswerSchema = z.object({
  /** `started`: a firmware update went out; it succeeds when the device reports the new version. */
  status: z.enum(['success', 'queued', 'started']),
  userMessage: z.string().optional(),
  data: CommandSchema,
  /** A refresh's reply: what the device said of itself (state, firmware, battery), when it said it. */
  report: RefreshReportSchema.optional(),
});
export type CommandAnswer = z.infer<typeof CommandAnswerSchema>;

/** How many commands ended each way; `queued` ones are held for sleeping devices. */
export const CommandCountsSchema = z.object({
  succeeded: z.number().int(),
  failed: z.number().int(),
  timed_out: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
});
export type CommandCounts = z.infer<typeof CommandCountsSchema>;

/** A bulk or entity-wide command: `success` when every device that answered said success. */
export const BulkCommandAnswerSchema = z.object({
  status: z.enum(['success', 'partial', 'failed']),
  userMessage: z.string(),
  data: z.object({
    counts: CommandCountsSchema,
    /** Per device (bulk: every requested device; entity: those that did not succeed, at most 100). */
    results: z.array(
      z.object({
        device: z.string(),
        state: z.enum([...COMMAND_STATES, 'not_found']),
        error: z.string().nullable(),
        /** A refresh that succeeded: the device's reply, as a single refresh answers it. */
        report: RefreshReportSchema.optional(),
      }),
    ),
  }),
});
export type BulkCommandAnswer = z.infer<typeof BulkCommandAnswerSchema>;

/** POST …/mqtt/general/entity?wait=false: answer at once (202) and let the caller follow the progress. */
export const EntityCommandQuerySchema = z.object({ wait: z.enum(['true', 'false']).default('true') });

/**
 * An entity-wide command's progress (GET …/mqtt/general/entity/{id}): how many devices it went
 * to, how many answered, and `done` once none is left waiting for a reply (held ones wait for
 * their device to wake, up to the command's expiry).
 */
export const EntityCommandProgressSchema = z.object({
  status: z.enum(['running', 'done']),
  userMessage: z.string(),
  data: z.object({
    id: z.uuid(),
    type: z.enum(COMMAND_TYPES),
    /** Devices of the entity the command was written for. */
    total: z.number().int(),
    counts: CommandCountsSchema.extend({ expired: z.number().int() }),
  }),
});
export type EntityCommandProgress = z.infer<typeof EntityCommandProgressSchema>;

export const CommandListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});

/** POST …/mqtt/dfu/{device}: the newest firmware for the device unless `firmware_id` names one. */
export const DfuRequestSchema = z.object({ firmware_id: z.uuid().optional(), expires_in_s: ttl });
export type DfuRequest = z.input<typeof DfuRequestSchema>;

/** POST …/mqtt/dfu/devices. */
export const BulkDfuRequestSchema = DfuRequestSchema.extend({ devices: BulkCommandRequestSchema.shape.devices });
export type BulkDfuRequest = z.input<typeof BulkDfuRequestSchema>;
