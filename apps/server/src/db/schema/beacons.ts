// Beacons: configurations, sightings stored as events, reminders and gateways.
import {
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { devices } from './fleet.ts';
import { entities } from './tenants.ts';

/** Beacon configurations (fleet §3): a patient's beacon with its medication times. The MAC is unique in its entity. */
export const beaconConfigs = pgTable(
  'beacon_configs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    beacon_mac: text('beacon_mac').notNull(),
    patient_name: text('patient_name').notNull(),
    room_number: text('room_number'),
    medications: jsonb('medications').$type<Array<{ name: string; dosage: string; time: string }>>().notNull(),
    rssi_threshold: smallint('rssi_threshold').notNull().default(-75),
    active: boolean('active').notNull().default(true),
    notes: text('notes').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('beacon_configs_entity_mac_idx').on(t.entity, t.beacon_mac)],
);

/**
 * Beacon events (fleet §3), written in batches by the sighting ingest and pruned after
 * BEACON_RETENTION_DAYS. Patient, room and medications are copied at the time of the event.
 */
export const beaconEvents = pgTable(
  'beacon_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    event_type: text('event_type').$type<'beacon_detected' | 'confirm_visit' | 'message_sent'>().notNull(),
    beacon_mac: text('beacon_mac').notNull(),
    patient: text('patient').notNull(),
    room: text('room'),
    rssi: smallint('rssi').notNull(),
    gateway: text('gateway').notNull(),
    medications: jsonb('medications').$type<string[]>().notNull(),
    message_sent: boolean('message_sent').notNull().default(false),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('beacon_events_entity_time_idx').on(t.entity, t.timestamp.desc()),
    index('beacon_events_time_idx').on(t.timestamp),
  ],
);

/**
 * One row per medication due time and day a reminder was sent for: the primary key makes "one
 * reminder per due time" hold across API instances. `confirmed_at` marks the visit that followed.
 */
export const beaconReminders = pgTable(
  'beacon_reminders',
  {
    config_id: uuid('config_id')
      .notNull()
      .references(() => beaconConfigs.id, { onDelete: 'cascade' }),
    due_date: text('due_date').notNull(),
    due_time: text('due_time').notNull(),
    gateway: text('gateway').notNull(),
    sent_at: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.config_id, t.due_date, t.due_time] }),
    index('beacon_reminders_sent_idx').on(t.sent_at),
  ],
);

/** Devices that report beacon sightings, with the time of their last one: "Devices Online" counts these. */
export const beaconGateways = pgTable(
  'beacon_gateways',
  {
    device: text('device')
      .primaryKey()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    entity: text('entity').notNull(),
    last_sighting_at: timestamp('last_sighting_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('beacon_gateways_entity_idx').on(t.entity, t.last_sighting_at)],
);
