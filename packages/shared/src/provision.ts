import { z } from 'zod';

/**
 * Provisioning (core §2, §3, §4, §7; docs/device-protocol.md "Provisioning"): the messages between
 * server and device, the event stream's events, and the session as the API answers it.
 */

/** Events of `provision/{device}/events` (core §4), in the order a session produces them. */
export const PROVISION_EVENTS = [
  'connection',
  'provision_started',
  'provisioning_ready',
  'file_updated',
  'provision_finalizing',
  'provision_completed',
  'provision_failed',
  'timeout',
] as const;
export type ProvisionEventName = (typeof PROVISION_EVENTS)[number];

/** Events after which the stream closes (core §4). */
export const FINAL_EVENTS: readonly ProvisionEventName[] = ['provision_completed', 'provision_failed', 'timeout'];

/** A file's status in a session (core §4). */
export const PROVISION_FILE_STATUSES = ['pending', 'queued', 'downloading', 'completed', 'failed'] as const;
export type ProvisionFileStatus = (typeof PROVISION_FILE_STATUSES)[number];

/**
 * A session's status on the server: the tracked statuses of core §4, plus `cancelled` and
 * `timeout` for sessions that ended without the device finishing.
 */
export const PROVISION_STATUSES = [
  'provision_started',
  'in_progress',
  'provision_finalizing',
  'provision_completed',
  'provision_failed',
  'cancelled',
  'timeout',
] as const;
export type ProvisionStatus = (typeof PROVISION_STATUSES)[number];

/** The texts of core §4 and §8 that the server also uses. */
export const PROVISION_TEXTS = {
  allFailed: 'All files failed to provision',
  partial: 'Provisioning Partially completed with errors',
  cancelled: 'Provisioning cancelled',
} as const;

/** How often an open event stream sends a comment line so proxies keep it (ms). */
export const SSE_HEARTBEAT_MS = 15_000;

/** One file as the device receives it: a signed, expiring link with the file's SHA-256 and size. */
export const ProvisionFileSchema = z.object({
  filename: z.string(),
  url: z.url(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().min(0),
  device_path: z.string(),
});
export type ProvisionFile = z.infer<typeof ProvisionFileSchema>;

/** Server → device on `…/cmd`: `{id, type: 'provision', payload: {session_id, files}, expires_at}`. */
export const ProvisionCommandSchema = z.object({
  id: z.uuid(),
  type: z.literal('provision'),
  payload: z.object({ session_id: z.uuid(), files: z.array(ProvisionFileSchema) }),
  expires_at: z.iso.datetime(),
});
export type ProvisionCommand = z.infer<typeof ProvisionCommandSchema>;

/** Server → device on `…/cmd`: stop the session and keep nothing half-written. */
export const ProvisionCancelSchema = z.object({
  id: z.uuid(),
  type: z.literal('provision_cancel'),
  payload: z.object({ session_id: z.uuid() }),
  expires_at: z.iso.datetime(),
});
export type ProvisionCancel = z.infer<typeof ProvisionCancelSchema>;

/** What a device reports per file: the statuses after `pending` (the server's own starting point). */
export const DEVICE_FILE_STATUSES = ['queued', 'downloading', 'completed', 'failed'] as const;

/**
 * Device → server on `…/events`: progress of a session. `ready` once it accepted the file list;
 * `file` for each change of one file (named by its device_path); `finalizing` when every file is
 * done; `completed` when it has finished; `failed` when the whole session cannot go on.
 */
/**
 * `n` numbers a device's reports within a session (1, 2, 3…). Reports can reach different server
 * instances (shared subscriptions) and so be handled out of order; with `n` the server applies
 * them in the device's order and drops repeats.
 */
const reportNumber = { n: z.number().int().min(1).max(1_000_000).optional() };

export const ProvisionDeviceEventSchema = z.discriminatedUnion('phase', [
  z.object({ type: z.literal('provision'), session_id: z.uuid(), phase: z.literal('ready'), ...reportNumber }),
  z.object({
    type: z.literal('provision'),
    session_id: z.uuid(),
    phase: z.literal('file'),
    ...reportNumber,
    device_path: z.string().min(1).max(255),
    status: z.enum(DEVICE_FILE_STATUSES),
    error: z.string().max(500).optional(),
  }),
  z.object({ type: z.literal('provision'), session_id: z.uuid(), phase: z.literal('finalizing'), ...reportNumber }),
  z.object({
    type: z.literal('provision'),
    session_id: z.uuid(),
    phase: z.literal('completed'),
    ...reportNumber,
    /** Each file's final status: the outcome holds even if earlier reports arrived out of order. */
    results: z
      .array(
        z.object({
          device_path: z.string().min(1).max(255),
          status: z.enum(['completed', 'failed']),
          error: z.string().max(500).optional(),
        }),
      )
      .max(1000)
      .optional(),
  }),
  z.object({
    type: z.literal('provision'),
    session_id: z.uuid(),
    phase: z.literal('failed'),
    ...reportNumber,
    error: z.string().max(500).optional(),
  }),
]);
export type ProvisionDeviceEvent = z.infer<typeof ProvisionDeviceEventSchema>;

export const SessionFileSchema = z.object({
  filename: z.string(),
  device_path: z.string(),
  status: z.enum(PROVISION_FILE_STATUSES),
  error: z.string().nullable(),
});
export type SessionFile = z.infer<typeof SessionFileSchema>;

/** Counters every event carries (core §3). */
export const CountersSchema = z.object({
  total_files: z.number().int(),
  completed_files: z.number().int(),
  failed_files: z.number().int(),
  downloading_files: z.number().int(),
});
export type Counters = z.infer<typeof CountersSchema>;

/** A provisioning session as the API answers it (core §3). */
export const ProvisionSessionSchema = CountersSchema.extend({
  deviceId: z.string(),
  session_id: z.string(),
  status: z.enum(PROVISION_STATUSES),
  /** The last event of the session. */
  eventType: z.string(),
  /** The log, oldest first. */
  message: z.array(z.string()),
  errorMessage: z.string().nullable(),
  files: z.array(SessionFileSchema),
  started_by: z.string(),
  created_at: z.string(),
  ended_at: z.string().nullable(),
});
export type ProvisionSession = z.infer<typeof ProvisionSessionSchema>;

export const ProvisionAnswerSchema = z.object({
  status: z.string(),
  userMessage: z.string(),
  data: ProvisionSessionSchema,
});
export type ProvisionAnswer = z.infer<typeof ProvisionAnswerSchema>;

/** The data of one stream event: always the session and its counters, then what the event says. */
export interface ProvisionEventData extends Counters {
  session_id: string;
  deviceId: string;
  /** The log line this event adds. */
  message: string;
  status?: string;
  filename?: string;
  device_path?: string;
  files?: Array<{ filename: string; device_path: string; status: ProvisionFileStatus }>;
  total?: number;
  error?: string | null;
  outcome?: 'success' | 'partial' | 'failed';
  cancelled?: boolean;
}

/** `Last-Event-ID` and every event's `id:`: the session and the event's number in it. */
export const eventId = (session: string, seq: number) => `${session}:${seq}`;

/** The session and number a `Last-Event-ID` names, or null when it is not one of ours. */
export function parseEventId(id: string | undefined): { session: string; seq: number } | null {
  const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\d{1,9})$/i.exec(id?.trim() ?? '');
  return m ? { session: m[1]!.toLowerCase(), seq: Number(m[2]) } : null;
}
