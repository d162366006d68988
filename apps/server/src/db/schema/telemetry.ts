// Telemetry history: every state report, connect and disconnect of a device, and hourly aggregates.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** What a history row records: a transition of presence, a report that changed something shown, or a plain report. */
export const TELEMETRY_KINDS = ['online', 'offline', 'change', 'report'] as const;
export type TelemetryKind = (typeof TELEMETRY_KINDS)[number];

/**
 * Raw history, one row per state report and per presence transition, written by the telemetry
 * batcher in the same statement that updates the device rows. Each row is the device's whole
 * reported state after the event (state, battery, charging, firmware, online). `at` is the
 * receive time; `device_at` the device's own clock when the report carried one (`ts`).
 *
 * Range-partitioned by day on `at` (migration 0012: Drizzle cannot say so); the sweep creates
 * days ahead and drops whole days older than TELEMETRY_RAW_DAYS. No primary key: a partitioned
 * table's would have to include `at`, and nothing looks a row up by one.
 */
export const deviceTelemetry = pgTable(
  'device_telemetry',
  {
    entity: text('entity').notNull(),
    device: text('device').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    device_at: timestamp('device_at', { withTimezone: true }),
    kind: text('kind').$type<TelemetryKind>().notNull(),
    online: boolean('online').notNull(),
    state: text('state'),
    battery: smallint('battery'),
    is_charging: boolean('is_charging'),
    fw_version: text('fw_version'),
  },
  (t) => [index('device_telemetry_device_at_idx').on(t.entity, t.device, t.at)],
);

/**
 * Hourly aggregates of the raw history, kept for TELEMETRY_HOURLY_DAYS (range-partitioned by
 * month on `hour`, like the raw table by day). `state_s` is seconds spent online in each state.
 */
export const deviceTelemetryHourly = pgTable(
  'device_telemetry_hourly',
  {
    entity: text('entity').notNull(),
    device: text('device').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    points: integer('points').notNull(),
    battery_min: smallint('battery_min'),
    battery_max: smallint('battery_max'),
    battery_mean: real('battery_mean'),
    charging_s: integer('charging_s').notNull(),
    online_s: integer('online_s').notNull(),
    state_s: jsonb('state_s').$type<Record<string, number>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.entity, t.device, t.hour] })],
);

/** One row: raw history before `through` is in the hourly table (the sweep's watermark). */
export const telemetryRollup = pgTable(
  'telemetry_rollup',
  {
    id: boolean('id').primaryKey().default(true),
    through: timestamp('through', { withTimezone: true }).notNull(),
  },
  (t) => [check('telemetry_rollup_one_row', sql`${t.id}`)],
);
