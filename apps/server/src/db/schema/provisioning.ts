// Provisioning: sessions, their files and their numbered events (core §3, §4).
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ProvisionFileStatus, ProvisionStatus } from '@fleet/shared/provision';
import { devices } from './fleet.ts';

/**
 * Provisioning sessions (core §3), kept as history. At most one session of a device is open
 * (`ended_at` null): the partial unique index refuses a second start on every instance at once.
 * `last_seq` numbers the session's events; the counters are those of its files.
 */
export const provisionSessions = pgTable(
  'provision_sessions',
  {
    id: uuid('id').primaryKey(),
    entity: text('entity').notNull(),
    device: text('device')
      .notNull()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    status: text('status').$type<ProvisionStatus>().notNull(),
    error: text('error'),
    started_by: text('started_by').notNull(),
    /** The device's state before the session, given back when it ends (unless the device said another). */
    prior_state: text('prior_state'),
    last_seq: integer('last_seq').notNull().default(0),
    /** The number (`n`) of the device's last report applied: reports are applied in its order. */
    device_seq: integer('device_seq').notNull().default(0),
    total_files: integer('total_files').notNull().default(0),
    completed_files: integer('completed_files').notNull().default(0),
    failed_files: integer('failed_files').notNull().default(0),
    downloading_files: integer('downloading_files').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last time the device said anything about this session; the timeout counts from it. */
    heard_at: timestamp('heard_at', { withTimezone: true }).notNull().defaultNow(),
    ended_at: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('provision_sessions_open_uq')
      .on(t.device)
      .where(sql`ended_at is null`),
    index('provision_sessions_device_idx').on(t.device, t.created_at.desc()),
    // No index on heard_at: every flush of reports sets it, and an indexed column makes each of
    // those updates a new index entry in every index (no HOT update). The timeout sweep finds the
    // open sessions through provision_sessions_open_uq (one per device at most).
  ],
);

/** The files of a session, one row per device path, with each one's status (core §4). */
export const provisionFiles = pgTable(
  'provision_files',
  {
    session_id: uuid('session_id')
      .notNull()
      .references(() => provisionSessions.id, { onDelete: 'cascade' }),
    device_path: text('device_path').notNull(),
    filename: text('filename').notNull(),
    file_id: uuid('file_id').notNull(),
    status: text('status').$type<ProvisionFileStatus>().notNull(),
    error: text('error'),
    ord: integer('ord').notNull(),
  },
  (t) => [primaryKey({ columns: [t.session_id, t.device_path] })],
);

/** Every event of a session, numbered: the log, and what a reconnecting stream replays (Last-Event-ID). */
export const provisionEvents = pgTable(
  'provision_events',
  {
    session_id: uuid('session_id')
      .notNull()
      .references(() => provisionSessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    event: text('event').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.session_id, t.seq] })],
);
