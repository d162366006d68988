import { z } from 'zod';
import {
  BEACON_DEFAULT_DOSE_TIME,
  BEACON_DEFAULT_RSSI_THRESHOLD,
  BEACON_EVENT_TYPES,
  BEACON_HISTORY_LIMIT,
  BEACON_MEDICATIONS_MAX,
  BEACON_MEDICATIONS_MIN,
  BEACON_RSSI_MAX,
  BEACON_RSSI_MIN,
} from '../beacon-constants.ts';
import { MESSAGES } from '../messages.ts';

/** Beacon configuration and events (fleet §3, §5, §7): one schema for the form, the API and the socket. */

export const BEACON_FORM_MESSAGES = {
  mac: 'Has to be a 12 hex digit MAC address (eg "c3a1b2d4e5f6"); colons and capitals are accepted',
  time: 'Has to be a time as HH:MM (eg "08:00")',
  medicationsMin: `At least ${BEACON_MEDICATIONS_MIN} medication`,
  medicationsMax: `At most ${BEACON_MEDICATIONS_MAX} medications`,
  rssi: `Between ${BEACON_RSSI_MIN} and ${BEACON_RSSI_MAX} dBm`,
  macImmutable: 'The beacon MAC cannot be changed; delete the configuration and add a new one',
} as const;

/**
 * A beacon MAC as stored: 12 lowercase hex digits without separators. Input with colons, dashes
 * or capitals ("C3:A1:B2:D4:E5:F6") is normalised to that form (docs/decisions.md).
 */
export const normaliseBeaconMac = (v: string) => v.trim().toLowerCase().replace(/[:-]/g, '');
export const beaconMac = () =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .transform(normaliseBeaconMac)
    .pipe(z.string().regex(/^[0-9a-f]{12}$/, BEACON_FORM_MESSAGES.mac));

const requiredText = (max: number) =>
  z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(max, `At most ${max} characters`);

export const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

export const MedicationSchema = z.object({
  name: requiredText(100),
  dosage: requiredText(100),
  time: z
    .string({ error: MESSAGES.required })
    .trim()
    .regex(HHMM, BEACON_FORM_MESSAGES.time)
    .default(BEACON_DEFAULT_DOSE_TIME),
});
export type Medication = z.infer<typeof MedicationSchema>;

const rssiThreshold = () =>
  z
    .number({ error: BEACON_FORM_MESSAGES.rssi })
    .int(BEACON_FORM_MESSAGES.rssi)
    .min(BEACON_RSSI_MIN, BEACON_FORM_MESSAGES.rssi)
    .max(BEACON_RSSI_MAX, BEACON_FORM_MESSAGES.rssi);

const medications = () =>
  z
    .array(MedicationSchema, { error: BEACON_FORM_MESSAGES.medicationsMin })
    .min(BEACON_MEDICATIONS_MIN, BEACON_FORM_MESSAGES.medicationsMin)
    .max(BEACON_MEDICATIONS_MAX, BEACON_FORM_MESSAGES.medicationsMax);

const roomNumber = () =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), z.string().trim().max(50).nullable());

/** POST beacon-configs: the form as it is (fleet §7). */
export const BeaconConfigCreateSchema = z.object({
  beacon_mac: beaconMac(),
  patient_name: requiredText(100),
  room_number: roomNumber().default(null),
  medications: medications(),
  rssi_threshold: rssiThreshold().default(BEACON_DEFAULT_RSSI_THRESHOLD),
  active: z.boolean().default(true),
  notes: z.string().trim().max(1000, 'At most 1000 characters').default(''),
});
export type BeaconConfigCreate = z.input<typeof BeaconConfigCreateSchema>;

/** PUT beacon-configs/{id}: any of the form's fields; the MAC may be sent only unchanged. */
export const BeaconConfigUpdateSchema = z.object({
  beacon_mac: beaconMac().optional(),
  patient_name: requiredText(100).optional(),
  room_number: roomNumber().optional(),
  medications: medications().optional(),
  rssi_threshold: rssiThreshold().optional(),
  active: z.boolean().optional(),
  notes: z.string().trim().max(1000, 'At most 1000 characters').optional(),
});
export type BeaconConfigUpdate = z.infer<typeof BeaconConfigUpdateSchema>;

/** "Aspirin 100 mg at 08:00": one medication as the event history and the list show it. */
export const formatMedication = (m: Medication) => `${m.name} ${m.dosage} at ${m.time}`;
/** The formatted medication text returned with a configuration. */
export const formatMedications = (list: Medication[]) => list.map(formatMedication).join(', ');

export const BeaconConfigSchema = z.object({
  id: z.string(),
  beacon_mac: z.string(),
  patient_name: z.string(),
  room_number: z.string().nullable(),
  medications: z.array(MedicationSchema),
  medications_text: z.string(),
  rssi_threshold: z.number(),
  active: z.boolean(),
  notes: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BeaconConfig = z.infer<typeof BeaconConfigSchema>;

export const BeaconConfigListSchema = z.object({ data: z.object({ beacons: z.array(BeaconConfigSchema) }) });

/** One beacon event as the history, the feed and the socket carry it (fleet §3). */
export const BeaconEventSchema = z.object({
  id: z.string(),
  event_type: z.enum(BEACON_EVENT_TYPES),
  patient: z.string(),
  beacon_mac: z.string(),
  room: z.string().nullable(),
  rssi: z.number(),
  /** The gateway (device id) that saw the beacon. */
  gateway: z.string(),
  timestamp: z.string(),
  medications: z.array(z.string()),
  message_sent: z.boolean(),
});
export type BeaconEvent = z.infer<typeof BeaconEventSchema>;

export const BeaconEventQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(BEACON_HISTORY_LIMIT),
});

/** The stats cards' figures over the last 24 hours, computed by the database. */
export const BeaconStatsSchema = z.object({
  total_events_24h: z.number().int(),
  /** Gateways connected now that reported a sighting in the last 5 minutes (docs/decisions.md). */
  gateways_online: z.number().int(),
  last_event_at: z.string().nullable(),
});
export type BeaconStats = z.infer<typeof BeaconStatsSchema>;

export const BeaconEventListSchema = z.object({
  data: z.object({ events: z.array(BeaconEventSchema), stats: BeaconStatsSchema }),
});

/** What the socket answers on connect. */
export const ConnectionResponseSchema = z.object({ status: z.literal('connected'), entity: z.string() });
