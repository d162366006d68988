// Tenants, accounts and what signs them in: sessions, refresh and permanent tokens, the sign-in throttle.
import { sql } from 'drizzle-orm';
import type { Subtype } from '@fleet/shared/constants';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';

/** Tenants. The name `landlord` is reserved for the superadmins' own scope. */
export const entities = pgTable('entities', {
  name: text('name').primaryKey(),
  description: text('description').notNull().default(''),
  license_tier: text('license_tier').notNull().default('basic'),
  // The entity config (fleet §3): JSON infos and the device path.
  networkinfo: jsonb('networkinfo'),
  globalinfo: jsonb('globalinfo'),
  allocinfo: jsonb('allocinfo'),
  unallocinfo: jsonb('unallocinfo'),
  device_path: text('device_path').notNull().default(''),
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
