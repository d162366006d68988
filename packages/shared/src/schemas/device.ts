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
export const DeviceSchema = z
  .object({
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
  })
  .meta({
    // Shown in the API reference (/api/docs).
    examples: [
      {
        name: 'dispenser-0042',
        description: 'Ward 3, bed 12',
        entity: 'acme',
        group: 'Ward_3',
        manufacturing_type: 'CC2',
        version_id: 'v2.1',
        mac_1: '00:1B:44:11:3A:B7',
        mac_2: null,
        has_certificate: true,
        fw_version: '1.8.0',
        state: { current: 'idle' },
        battery: 87,
        is_charging: false,
        last_dispenser: null,
        current_provision: null,
        current_download: null,
        created_at: '2026-11-02T09:14:00.000Z',
        updated_at: '2026-11-28T01:52:10.000Z',
        online: true,
      },
    ],
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

/** The device list's sortable columns: every column of the table (core §2). */
export const DEVICE_SORTS = [
  'name',
  'group',
  'entity',
  'fw_version',
  'state',
  'created_at',
  'updated_at',
  'battery',
] as const;

/**
 * How recently a device was heard from (`seen=`): `online` connected to the broker now;
 * `unresponsive` no sign of life for 20 minutes (core §4, the rule that highlights a row, whether
 * or not it ever connected); `never` never heard from (its last sign of life is its registration).
 */
export const SEEN_FILTERS = ['online', 'unresponsive', 'never'] as const;
export type SeenFilter = (typeof SEEN_FILTERS)[number];

/** At most this many values of one filter field (OR) in a list query. */
export const FILTER_VALUES_MAX = 50;

/** A filter field that may be repeated (`status=A&status=B`, meaning OR); one value or none as before. */
const anyOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).filter((x) => x !== '')),
    z.array(item).max(FILTER_VALUES_MAX, `At most ${FILTER_VALUES_MAX} values`),
  );
const DATE_RANGE_KEYS = Object.keys(DATE_RANGES) as [keyof typeof DATE_RANGES, ...(keyof typeof DATE_RANGES)[]];
/** A point in time: an ISO date-time, or a creation-range key meaning that long before now. */
const instant = () =>
  z.union([
    z.enum(DATE_RANGE_KEYS),
    z.iso.datetime({ offset: true, error: 'An ISO date-time or a range (24h, 1w, …)' }),
  ]);
const value = (max: number) => z.string().trim().min(1).max(max);

/** Every filter of the device list, beside the page and the sort (core §2, §9; issue 27). */
export const DeviceFilterQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  /** Landlord only, and single (core §9). */
  entity: z.string().trim().max(64).optional(),
  status: anyOf(value(32)),
  battery: anyOf(z.enum(BATTERY_FILTERS)),
  fw_version: anyOf(value(64)),
  /** A group's name: the devices in it. */
  group: anyOf(value(64)),
  /** A site's name: the devices in its groups. */
  site: anyOf(value(64)),
  /** A kiosk's name: the devices in its groups. */
  kiosk: anyOf(value(64)),
  type: anyOf(z.enum(DEVICE_TYPES)),
  seen: anyOf(z.enum(SEEN_FILTERS)),
  /** Last seen at or after / before this instant. */
  seen_after: instant().optional(),
  seen_before: instant().optional(),
  created: z.enum(DATE_RANGE_KEYS).optional(),
});
export type DeviceFilterQuery = z.infer<typeof DeviceFilterQuerySchema>;

/** GET device: one page, filtered and sorted by the database (core §2, §9). */
export const DeviceListQuerySchema = DeviceFilterQuerySchema.extend({
  limit: z.coerce.number().int().min(0).max(1_000).default(20),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  sort: z.enum(DEVICE_SORTS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuerySchema>;

/** GET device/export: the whole filtered, sorted list as a file. */
export const DeviceExportQuerySchema = DeviceFilterQuerySchema.extend({
  format: z.enum(['csv']).default('csv'),
  sort: z.enum(DEVICE_SORTS).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type DeviceExportQuery = z.infer<typeof DeviceExportQuerySchema>;

/** The distinct values the filter sidebar offers (firmware versions, states) for the scope. */
export const DeviceFacetsSchema = z.object({
  fw_versions: z.array(z.string()),
  states: z.array(z.string()),
  entities: z.array(z.string()),
  /** The groups of the scope (the Groups filter's choices). */
  groups: z.array(z.string()),
  /** The sites and kiosks of the scope (their filters' choices). */
  sites: z.array(z.string()),
  kiosks: z.array(z.string()),
});
