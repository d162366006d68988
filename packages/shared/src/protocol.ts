import { z } from 'zod';

/**
 * The device protocol (ARCHITECTURE.md, "Device protocol"; docs/device-protocol.md): topic names
 * and the JSON messages on them. The server, the simulator and the tests all speak it from here.
 */

export const TOPIC_ROOT = 'fleet';

/** What a device publishes, under its own `fleet/{entity}/{device}/` prefix. */
export const DEVICE_PUBLISH_KINDS = ['state', 'reply', 'events', 'beacon'] as const;
export type DevicePublishKind = (typeof DEVICE_PUBLISH_KINDS)[number];

export const topics = {
  state: (entity: string, device: string) => `${TOPIC_ROOT}/${entity}/${device}/state`,
  reply: (entity: string, device: string) => `${TOPIC_ROOT}/${entity}/${device}/reply`,
  events: (entity: string, device: string) => `${TOPIC_ROOT}/${entity}/${device}/events`,
  beacon: (entity: string, device: string) => `${TOPIC_ROOT}/${entity}/${device}/beacon`,
  /** Commands to one device. */
  deviceCommands: (entity: string, device: string) => `${TOPIC_ROOT}/${entity}/${device}/cmd`,
  /** Commands to every device of the entity. */
  entityCommands: (entity: string) => `${TOPIC_ROOT}/${entity}/cmd`,
} as const;

/** Subscriptions the server holds: everything devices publish, for every entity. */
export const SERVER_SUBSCRIPTIONS = DEVICE_PUBLISH_KINDS.map((kind) => `${TOPIC_ROOT}/+/+/${kind}`);

const SEGMENT = /^[A-Za-z0-9_]+$/;

/** `fleet/{entity}/{device}/{kind}` for a device-published kind, or null for any other topic. */
export function parseDeviceTopic(topic: string): { entity: string; device: string; kind: DevicePublishKind } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== TOPIC_ROOT) return null;
  const [, entity, device, kind] = parts as [string, string, string, string];
  if (!SEGMENT.test(entity) || !SEGMENT.test(device)) return null;
  if (!(DEVICE_PUBLISH_KINDS as readonly string[]).includes(kind)) return null;
  return { entity, device, kind: kind as DevicePublishKind };
}

/** Largest payload the server reads from a device; anything larger is dropped and counted. */
export const MAX_DEVICE_PAYLOAD_BYTES = 16 * 1024;

/**
 * A partial state report, merged into the device record; any message counts as a sign of life.
 * `online: false` is what a device says before it sleeps (and sets as its Last Will); unknown keys
 * are ignored so newer firmware can report more than this server reads.
 */
export const StateReportSchema = z.object({
  state: z.string().trim().min(1).max(64).optional(),
  fw_version: z.string().trim().min(1).max(32).optional(),
  battery: z.number().int().min(0).max(100).optional(),
  is_charging: z.boolean().optional(),
  online: z.boolean().optional(),
  /** The device's clock, epoch milliseconds; informational (the server's receive time is last-seen). */
  ts: z.number().int().min(0).optional(),
});
export type StateReport = z.infer<typeof StateReportSchema>;

/**
 * Command types of this version; `dfu` (firmware update) is sent by `mqtt/dfu/…` only, `allocate`
 * and `return` by the kiosk manager only.
 */
export const COMMAND_TYPES = ['refresh', 'vibrate', 'reboot', 'dfu', 'allocate', 'return'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** What refresh asks a device for: state, firmware version and battery gauge (core §7). */
export const REFRESH_FIELDS = ['state', 'fw_version', 'battery'] as const;

/** Vibration songs: `V` and a number; the console sends V10 to a device and V101 to every device (core §7). */
export const VIBRATION_SONG = /^V[0-9]{1,4}$/;
export const SONG_ONE_DEVICE = 'V10';
export const SONG_ALL_DEVICES = 'V101';

/** The command as the API takes it (`{payload}` of core §7): what to do, with its arguments. */
export const CommandPayloadSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('refresh'),
    fields: z
      .array(z.enum(REFRESH_FIELDS))
      .min(1)
      .default([...REFRESH_FIELDS]),
  }),
  z.object({
    type: z.literal('vibrate'),
    song: z.string().regex(VIBRATION_SONG, 'A song is V followed by up to 4 digits, e.g. V10'),
  }),
  z.object({ type: z.literal('reboot') }),
]);
export type CommandPayload = z.infer<typeof CommandPayloadSchema>;

/**
 * A firmware update as the device receives it (docs/device-protocol.md "Firmware update"): where
 * to download the image (a signed, expiring URL that honours Range), its SHA-256 and size, and
 * the version the device must report once it runs it.
 */
export const DfuPayloadSchema = z.object({
  type: z.literal('dfu'),
  firmware_id: z.uuid(),
  version: z.string().min(1).max(32),
  url: z.url(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().min(1),
});
export type DfuPayload = z.infer<typeof DfuPayloadSchema>;

/**
 * An allocation as the device receives it (docs/device-protocol.md "Allocate"): the visitor, the
 * content of each dataview it gets (name → JSON) and the network info (null when none was given).
 */
export const AllocatePayloadSchema = z.object({
  type: z.literal('allocate'),
  allocation_id: z.uuid(),
  visitor: z.string().min(1),
  kiosk: z.string().min(1),
  apps: z.record(z.string(), z.unknown()),
  network: z.unknown(),
});
export type AllocatePayload = z.infer<typeof AllocatePayloadSchema>;

/** A return as the device receives it: the kiosk and dispenser it now sits in, and the allocation it closed (or null). */
export const ReturnPayloadSchema = z.object({
  type: z.literal('return'),
  kiosk: z.string().min(1),
  dispenser: z.string().min(1),
  allocation_id: z.uuid().nullable(),
});
export type ReturnPayload = z.infer<typeof ReturnPayloadSchema>;

/** Whatever the server sends a device: a general command, a firmware update, an allocation or a return. */
export type DevicePayload = CommandPayload | DfuPayload | AllocatePayload | ReturnPayload;

/** Phases a device reports on `events` while it updates its firmware. */
export const DFU_PHASES = ['accepted', 'downloading', 'verifying', 'installing', 'rebooting'] as const;
export type DfuPhase = (typeof DFU_PHASES)[number];

/** Device → server on `…/events`: progress of a firmware update (`id` is the dfu command's). */
export const DfuEventSchema = z.object({
  type: z.literal('dfu'),
  id: z.uuid(),
  phase: z.enum(DFU_PHASES),
  progress: z.number().int().min(0).max(100),
  /** Bytes downloaded so far (informational). */
  bytes: z.number().int().min(0).optional(),
});
export type DfuEvent = z.infer<typeof DfuEventSchema>;

/** Server → device on `…/cmd`: `{id, type, payload, expires_at}`. Devices drop an id they have seen. */
export const CommandMessageSchema = z.object({
  id: z.uuid(),
  type: z.enum(COMMAND_TYPES),
  payload: z.record(z.string(), z.unknown()),
  expires_at: z.iso.datetime(),
});
export type CommandMessage = z.infer<typeof CommandMessageSchema>;

/** The message for a command: the payload's arguments travel without its type. */
export function commandMessage(id: string, payload: DevicePayload, expiresAt: Date): CommandMessage {
  const { type, ...args } = payload;
  return { id, type, payload: args, expires_at: expiresAt.toISOString() };
}

/** Device → server on `…/reply`. A refresh reply's `data` is a state report and is merged. */
export const ReplyMessageSchema = z.object({
  id: z.uuid(),
  status: z.enum(['success', 'error']),
  error: z.string().max(500).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type ReplyMessage = z.infer<typeof ReplyMessageSchema>;
