import { sql } from 'drizzle-orm';
import type { Subtype } from '@fleet/shared/constants';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CommandType } from '@fleet/shared/protocol';
import type { CommandState } from '@fleet/shared/schemas/command';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Tenants. The name `landlord` is reserved for the superadmins' own scope. */
export const entities = pgTable('entities', {
  name: text('name').primaryKey(),
  description: text('description').notNull().default(''),
  license_tier: text('license_tier').notNull().default('basic'),
  ...timestamps,
});

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().unique(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    subtype: text('subtype').$type<Subtype>().notNull(),
    entity: text('entity').references(() => entities.name, {
      onDelete: 'cascade',
      onUpdate: 'cascade',
    }),
    access: jsonb('access')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [index('accounts_entity_idx').on(t.entity)],
);

/**
 * A session: one sign-in and every refresh after it. Access tokens name their family (`fam`),
 * so revoking a family ends both its refresh tokens and its access tokens at once.
 */
export const sessionFamilies = pgTable(
  'session_families',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('session_families_account_idx').on(t.account_id)],
);

/** Permanent API tokens, stored only as SHA-256 hashes; they act with their account's rights. */
export const permanentTokens = pgTable(
  'permanent_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    account_id: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    last_used: timestamp('last_used', { withTimezone: true }),
  },
  (t) => [index('permanent_tokens_account_idx').on(t.account_id)],
);

/**
 * Refresh tokens, stored only as SHA-256 hashes. Every refresh spends one row and adds the next
 * in the same family; presenting a spent row revokes the family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    token_hash: text('token_hash').primaryKey(),
    family_id: uuid('family_id')
      .notNull()
      .references(() => sessionFamilies.id, { onDelete: 'cascade' }),
    issued_at: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    spent_at: timestamp('spent_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.family_id)],
);

/** Failed sign-in counters per key (`acct:<name>` or `addr:<ip>`), shared by every instance. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  window_started_at: timestamp('window_started_at', { withTimezone: true }).notNull(),
  blocked_until: timestamp('blocked_until', { withTimezone: true }),
});

/**
 * Devices. The id (`name`, 12 hex digits) is the hardware's identity and its MQTT username, so it
 * is unique across entities. `updated_at` is the device's last sign of life, not an edit time.
 */
export const devices = pgTable(
  'devices',
  {
    name: text('name').primaryKey(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    description: text('description').notNull().default(''),
    group: text('group'),
    manufacturing_type: text('manufacturing_type').$type<'CC1' | 'CC2'>().notNull().default('CC1'),
    version_id: text('version_id'),
    mac_1: text('mac_1'),
    mac_2: text('mac_2'),
    x509_certificate: text('x509_certificate'),
    fw_version: text('fw_version'),
    state_current: text('state_current'),
    battery: smallint('battery'),
    is_charging: boolean('is_charging'),
    last_dispenser: text('last_dispenser'),
    current_provision: text('current_provision'),
    current_download: text('current_download'),
    mqtt_secret_hash: text('mqtt_secret_hash').notNull(),
    /** Connected to the broker now; commands to a device that is not are held until it wakes. */
    online: boolean('online').notNull().default(false),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The id tie-breaker follows the direction of its column, so both ends of a page are index order.
    index('devices_entity_created_idx').on(t.entity, t.created_at.desc(), t.name.desc()),
    index('devices_created_idx').on(t.created_at.desc(), t.name.desc()),
    index('devices_entity_updated_idx').on(t.entity, t.updated_at, t.name),
    index('devices_entity_state_idx').on(t.entity, t.state_current, t.created_at.desc()),
    index('devices_entity_fw_idx').on(t.entity, t.fw_version, t.created_at.desc()),
    index('devices_entity_battery_idx').on(t.entity, t.battery, t.created_at.desc()),
    // On lower(…), so only the search (which asks for lower(…) like …) can use them: on the bare
    // column, PostgreSQL picked the trigram index for `name = …` lookups and crawled its pending list.
    index('devices_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    index('devices_description_trgm_idx').using('gin', sql`lower(${t.description}) gin_trgm_ops`),
  ],
);

export const COMMAND_TARGETS = ['device', 'devices', 'entity'] as const;

/**
 * Remote commands, one row per command and device, written before the command is published.
 * `id` is the id the device sees; an entity-wide command shares one id across its devices' rows.
 * `state` moves queued → sent → succeeded | failed | timed_out | expired (queued = held for a
 * sleeping device).
 */
export const commands = pgTable(
  'commands',
  {
    id: uuid('id').notNull(),
    device: text('device')
      .notNull()
      .references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    entity: text('entity').notNull(),
    type: text('type').$type<CommandType>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    target: text('target').$type<(typeof COMMAND_TARGETS)[number]>().notNull(),
    state: text('state').$type<CommandState>().notNull(),
    sent_by: text('sent_by').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    replied_at: timestamp('replied_at', { withTimezone: true }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    error: text('error'),
    latency_ms: integer('latency_ms'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.device] }),
    index('commands_device_created_idx').on(t.device, t.created_at.desc()),
    // Held and unanswered commands: what a waking device is owed and what the sweeper ends.
    index('commands_open_idx')
      .on(t.state, t.device)
      .where(sql`state in ('queued', 'sent')`),
  ],
);
