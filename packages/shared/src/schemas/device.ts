import { z } from 'zod';
import { BATTERY_FILTERS, DATE_RANGES, DEVICE_TYPES, FILE_LIMITS, fileTooBig } from '../constants.ts';
import { MESSAGES, apiName, description } from '../validation.ts';

/** Device ID: exactly 12 lower-case hex digits (fleet §5). */
export const deviceId = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .regex(/^[0-9a-f]{12}$/, MESSAGES.deviceId);

const loraDevEui = () =>
  z
    .string()
    .trim()
    .regex(/^[0-9a-f]{16}$/, MESSAGES.loraDevEui);
const lteImsi = () =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{4,16}$/, MESSAGES.lteImsi);
/** An X509 certificate or public key as PEM text (fleet §3, §5). */
export const certificate = () =>
  z
    .string()
    .max(FILE_LIMITS.certificate, fileTooBig(FILE_LIMITS.certificate))
    .regex(/^-----BEGIN [A-Z0-9 ]+-----[\s\S]+-----END [A-Z0-9 ]+-----\s*$/, 'Not a PEM certificate or public key');
const versionId = () => z.string().trim().max(64, 'At most 64 characters');

/** A device as the API presents it (core §3, fleet §3). */
export const DeviceSchema = z.object({
  name: z.string(),
  description: z.string(),
  entity: z.string(),
  group: z.string().nullable(),
  manufacturing_type: z.enum(DEVICE_TYPES),
  version_id: z.string().nullable(),
  mac_1: z.string().nullable(),
  mac_2: z.string().nullable(),
  has_certificate: z.boolean(),
  fw_version: z.string().nullable(),
  state: z.object({ current: z.string().nullable() }),
  battery: z.number().nullable(),
  is_charging: z.boolean().nullable(),
  last_dispenser: z.object({ dispenser: z.string() }).nullable(),
  current_provision: z.string().nullable(),
  current_download: z.string().nullable(),
  created_at: z.string(),
  /** The device's last sign of life (creation until it first reports); drives the 20-minute rule. */
  updated_at: z.string(),
  /** Connected to the broker now; false while it sleeps (commands to it are held until it wakes). */
  online: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;

/** The device's MQTT credentials: the password appears in the create and regenerate answers only. */
export const MqttCredentialsSchema = z.object({ username: z.string(), password: z.string() });

export const DeviceWithCredentialsSchema = DeviceSchema.extend({ mqtt: MqttCredentialsSchema });

/** An optional text field: '' and null clear it. */
export const optionalText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? null : v), schema.nullable().optional());

/** POST device `{document}` (fleet §5). */
export const DeviceCreateDocumentSchema = z.object({
  name: deviceId(),
  /** Only on the landlord's plain path; the `tenant/{entity}/` path decides the entity itself. */
  entity: apiName().optional(),
  description: description().default(''),
  group: optionalText(apiName()),
  manufacturing_type: z.enum(DEVICE_TYPES).default('CC1'),
  version_id: optionalText(versionId()),
  mac_1: optionalText(loraDevEui()),
  mac_2: optionalText(lteImsi()),
  X509_certificate: optionalText(certificate()),
});
export const DeviceCreateRequestSchema = z.object({ document: DeviceCreateDocumentSchema });
export type DeviceCreateDocument = z.input<typeof DeviceCreateDocumentSchema>;

/** PUT device/{name} `{operator: {$set}}`: what people edit; what devices report is theirs. */
export const DeviceUpdateSetSchema = z
  .object({
    name: deviceId(),
    description: description(),
    group: optionalText(apiName()),
    manufacturing_type: z.enum(DEVICE_TYPES),
    version_id: optionalText(versionId()),
    mac_1: optionalText(loraDevEui()),
    mac_2: optionalText(lteImsi()),
    X509_certificate: optionalText(certificate()),
  })
  .partial()
  .strict();
export const DeviceUpdateRequestSchema = z.object({ operator: z.object({ $set: DeviceUpdateSetSchema }) });
export type DeviceUpdateSet = z.infer<typeof DeviceUpdateSetSchema>;

export const DEVICE_SORTS = ['name', 'created_at', 'updated_at', 'battery', 'fw_version', 'state'] as const;

/** GET device: one page, filtered and sorted by the database (core §2, §9). */
export const DeviceListQuerySchema = z.object({
  limit: z.coerce.number().int().min(0).max(1_000).default(20),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  sort: z.enum(DEVICE_SORTS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  search: z.string().trim().max(100).optional(),
  entity: z.string().trim().max(64).optional(),
  status: z.string().trim().max(32).optional(),
  battery: z.enum(BATTERY_FILTERS).optional(),
  fw_version: z.string().trim().max(64).optional(),
  /** A group's name: the devices in it. */
  group: z.string().trim().max(64).optional(),
  created: z.enum(Object.keys(DATE_RANGES) as [keyof typeof DATE_RANGES, ...(keyof typeof DATE_RANGES)[]]).optional(),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuerySchema>;

/** The distinct values the filter sidebar offers (firmware versions, states) for the scope. */
export const DeviceFacetsSchema = z.object({
  fw_versions: z.array(z.string()),
  states: z.array(z.string()),
  entities: z.array(z.string()),
  /** The groups of the scope (the Groups filter's choices). */
  groups: z.array(z.string()),
});
