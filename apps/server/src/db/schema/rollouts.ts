// Firmware and file-set rollouts (issue 28; docs/rollouts.md); the SQL is drizzle/0016_rollouts.sql and 0020_rollout_knobs.sql.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type {
  RolloutDelivery,
  RolloutDeviceState,
  RolloutState,
  RolloutTarget,
  RolloutWindow,
} from '@fleet/shared/schemas/rollout';
import { devices, firmware } from './fleet.ts';
import { entities } from './tenants.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * One rollout: what it delivers (a firmware version for one device type), its target (resolved
 * at start into `rollout_devices`), its stages and thresholds, and where the engine is.
 */
export const rollouts = pgTable(
  'rollouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    name: text('name').notNull(),
    delivery: text('delivery').$type<RolloutDelivery>().notNull().default('firmware'),
    firmware_id: uuid('firmware_id').references(() => firmware.id, { onDelete: 'set null' }),
    /** The firmware's version and device type; null for a file-set rollout. */
    version: text('version'),
    device_type: text('device_type').$type<'CC1' | 'CC2'>(),
    target: jsonb('target').$type<RolloutTarget>().notNull(),
    canary: integer('canary').notNull(),
    percents: jsonb('percents').$type<number[]>().notNull(),
    success_threshold_pct: integer('success_threshold_pct').notNull(),
    error_threshold_pct: integer('error_threshold_pct').notNull(),
    report_timeout_s: integer('report_timeout_s').notNull(),
    hold_s: integer('hold_s').notNull(),
    max_in_flight: integer('max_in_flight').notNull(),
    approval: boolean('approval').notNull(),
    soak_s: integer('soak_s').notNull().default(0),
    /** The API's `window` (a reserved word in SQL). */
    send_window: jsonb('send_window').$type<RolloutWindow>(),
    jitter_s: integer('jitter_s').notNull().default(0),
    /** When the current stage's soak ends; null when it is not soaking. */
    soak_until: at('soak_until'),
    /** Where devices download the image: PUBLIC_URL, or the origin the rollout was created through. */
    download_base: text('download_base').notNull(),
    state: text('state').$type<RolloutState>().notNull().default('draft'),
    current_stage: integer('current_stage').notNull().default(0),
    attempt: integer('attempt').notNull().default(1),
    pause_reason: text('pause_reason'),
    created_by: text('created_by').notNull(),
    created_at: at('created_at').notNull().defaultNow(),
    started_at: at('started_at'),
    finished_at: at('finished_at'),
    updated_at: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('rollouts_entity_created_idx').on(t.entity, t.created_at.desc()),
    index('rollouts_active_idx')
      .on(t.state)
      .where(sql`state not in ('draft', 'finished')`),
  ],
);

/**
 * A device's part in a rollout, one row per attempt (a retry adds the next and marks the last
 * superseded): the unique (rollout, device, attempt) and conditional state changes are what keep
 * a device from being sent the same step twice.
 */
export const rolloutDevices = pgTable(
  'rollout_devices',
  {
    rollout: uuid('rollout')
      .notNull()
      .references(() => rollouts.id, { onDelete: 'cascade' }),
    device: text('device')
      .notNull()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    attempt: integer('attempt').notNull(),
    /** Null for a device skipped at start (already on the version). */
    stage: integer('stage'),
    position: integer('position').notNull(),
    state: text('state').$type<RolloutDeviceState>().notNull(),
    superseded: boolean('superseded').notNull().default(false),
    command_id: uuid('command_id'),
    error: text('error'),
    claimed_at: at('claimed_at'),
    /** When its (jittered) send is due, set when claimed. */
    send_at: at('send_at'),
    /** When its update was written (a firmware command) or started (a provisioning session). */
    sent_at: at('sent_at'),
    settled_at: at('settled_at'),
  },
  (t) => [
    primaryKey({ name: 'rollout_devices_pk', columns: [t.rollout, t.device, t.attempt] }),
    index('rollout_devices_open_idx')
      .on(t.rollout, t.stage, t.position)
      .where(sql`state in ('waiting', 'in_flight') and not superseded`),
  ],
);
