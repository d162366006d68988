// The device list's saved views and the fixed device sets "select all matching" acts on (issue 27).
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamps } from './columns.ts';
import { accounts, entities } from './tenants.ts';

/**
 * A named filter and sort of the device list, in the list's own query grammar (`query`). `entity`
 * null: the landlord's own list (`/sdevices`). Private to `owner` unless `shared` with the scope.
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity').references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    owner: text('owner')
      .notNull()
      .references(() => accounts.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    name: text('name').notNull(),
    shared: boolean('shared').notNull().default(false),
    query: text('query').notNull(),
    ...timestamps,
  },
  (t) => [index('saved_views_entity_idx').on(t.entity, t.name)],
);

/**
 * A filter resolved to a fixed set of devices at the dry run: the action later touches exactly
 * `device_selection_members`, never a device created after the count. `state`: counted → running
 * → done; `done` counts the devices the job has handled, `last` is the last member name handled
 * (the resume point), `args` the action's arguments, and the lease says which instance runs it
 * until when: a sweep takes a `running` row whose lease lapsed (0025_selection_resume.sql).
 */
export const deviceSelections = pgTable(
  'device_selections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity').references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    owner: text('owner').notNull(),
    query: text('query').notNull(),
    total: integer('total').notNull(),
    action: text('action'),
    state: text('state').$type<'counted' | 'running' | 'done'>().notNull().default('counted'),
    done: integer('done').notNull().default(0),
    args: jsonb('args').$type<Record<string, unknown>>(),
    last: text('last'),
    started_at: timestamp('started_at', { withTimezone: true }),
    lease_holder: text('lease_holder'),
    lease_until: timestamp('lease_until', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('device_selections_expires_idx').on(t.expires_at),
    index('device_selections_running_idx')
      .on(t.lease_until)
      .where(sql`"state" = 'running'`),
  ],
);

export const deviceSelectionMembers = pgTable(
  'device_selection_members',
  {
    selection: uuid('selection')
      .notNull()
      .references(() => deviceSelections.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    entity: text('entity').notNull(),
  },
  (t) => [primaryKey({ name: 'device_selection_members_pk', columns: [t.selection, t.device] })],
);

/**
 * The fleet's figures of now (migration 0028): signed counts per entity and key, added by statement
 * triggers on devices and folded into one row per key every minute (foldFleetCounts). `dim`: total,
 * online, never, high, medium, low, charging, state (`a` the state), fw (`a` the type, `b` the version).
 */
export const fleetCounts = pgTable(
  'fleet_counts',
  {
    entity: text('entity').notNull(),
    dim: text('dim').notNull(),
    a: text('a'),
    b: text('b'),
    n: integer('n').notNull(),
  },
  (t) => [index('fleet_counts_entity_idx').on(t.entity)],
);
