// Single sign-on with OpenID Connect (docs/sso.md): providers, links, flows under way and hand-offs.
import { sql } from 'drizzle-orm';
import type { Subtype } from '@fleet/shared/constants';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { accounts, entities } from './tenants.ts';

/** An entity's identity provider; the landlord's comes from the OIDC_* settings instead. */
export const ssoProviders = pgTable('sso_providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  entity: text('entity')
    .notNull()
    .unique()
    .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
  label: text('label').notNull(),
  issuer: text('issuer').notNull(),
  client_id: text('client_id').notNull(),
  client_secret: text('client_secret').notNull(),
  claim: text('claim').$type<'email' | 'sub'>().notNull().default('email'),
  auto_create: boolean('auto_create').notNull().default(false),
  default_subtype: text('default_subtype').$type<Subtype>().notNull().default('developer'),
  default_access: jsonb('default_access')
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  ...timestamps,
});

/** A person at an issuer (its `sub`) who signed in as an account; one link an account an issuer. */
export const ssoLinks = pgTable(
  'sso_links',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    account_id: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.account_id, t.issuer] }), index('sso_links_subject_idx').on(t.issuer, t.subject)],
);

/** A sign-in under way: what the callback checks, on whichever instance it lands. */
export const ssoFlows = pgTable('sso_flows', {
  state: text('state').primaryKey(),
  /** The provider's id: an entity provider's uuid, or `landlord`. */
  provider: text('provider').notNull(),
  nonce: text('nonce').notNull(),
  code_verifier: text('code_verifier').notNull(),
  redirect_uri: text('redirect_uri').notNull(),
  return_to: text('return_to'),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** A finished sign-in's one-time code, which the console exchanges for the token pair. */
export const ssoHandoffs = pgTable('sso_handoffs', {
  code_hash: text('code_hash').primaryKey(),
  account_id: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
});
