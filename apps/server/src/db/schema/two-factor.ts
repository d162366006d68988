// Two-factor sign-in with TOTP (docs/two-factor.md): authenticators, recovery codes, challenges, requirements.
import { bigint, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './tenants.ts';

const account = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });

/** An account's authenticator; `confirmed_at` null while enrolment waits for its first code. */
export const accountTotp = pgTable('account_totp', {
  account_id: account().primaryKey(),
  secret: text('secret').notNull(),
  confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
  /** The last time step a code was accepted for: that step and earlier ones are refused. */
  last_step: bigint('last_step', { mode: 'number' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A recovery code's hash; spent once. */
export const totpRecoveryCodes = pgTable(
  'totp_recovery_codes',
  {
    account_id: account(),
    code_hash: text('code_hash').notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.account_id, t.code_hash] })],
);

/** A password sign-in waiting for its second step. */
export const totpChallenges = pgTable('totp_challenges', {
  token_hash: text('token_hash').primaryKey(),
  account_id: account(),
  kind: text('kind').$type<'verify' | 'enrol'>().notNull(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** A scope whose admins must use a second factor: an entity's name, or '' for the superadmins. */
export const totpRequirements = pgTable('totp_requirements', {
  scope: text('scope').primaryKey(),
  set_by: text('set_by').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
