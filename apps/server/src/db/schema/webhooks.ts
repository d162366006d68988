// Alert delivery (issue 29; docs/webhooks.md): webhooks per entity, their durable queue and log, and
// the alert e-mails waiting for their burst to end (0019_alert_delivery.sql, with the triggers that
// fill the queue in the transaction of each change).
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { alertRules, alerts } from './alerts.ts';
import { timestamps } from './columns.ts';
import { entities } from './tenants.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    secret: text('secret').notNull(),
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Failed attempts since the last success, and when that run of failures began. */
    consecutive_failures: integer('consecutive_failures').notNull().default(0),
    failing_since: at('failing_since'),
    disabled_at: at('disabled_at'),
    disabled_reason: text('disabled_reason'),
    ...timestamps,
  },
  (t) => [index('webhooks_entity_idx').on(t.entity)],
);

/** status: pending (waiting for its next attempt) → delivered | failed (gave up after a day). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhook_id: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    entity: text('entity').notNull(),
    event_id: uuid('event_id').notNull(),
    event_type: text('event_type').notNull(),
    /** The exact JSON sent and signed. */
    body: text('body').notNull(),
    status: text('status').$type<'pending' | 'delivered' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: at('next_attempt_at').notNull().defaultNow(),
    /** Claimed by a worker until then (the POST runs outside any transaction). */
    lease_until: at('lease_until'),
    last_status_code: integer('last_status_code'),
    last_error: text('last_error'),
    last_duration_ms: integer('last_duration_ms'),
    created_at: at('created_at').notNull().defaultNow(),
    delivered_at: at('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.next_attempt_at, t.created_at)
      .where(sql`status = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhook_id, t.created_at.desc()),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    delivery_id: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    webhook_id: uuid('webhook_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: at('at').notNull(),
    status_code: integer('status_code'),
    duration_ms: integer('duration_ms').notNull(),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.delivery_id, t.attempt)],
);

export const alertEmails = pgTable(
  'alert_emails',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    entity: text('entity').notNull(),
    rule_id: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    alert_id: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    created_at: at('created_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: at('next_attempt_at').notNull().defaultNow(),
  },
  (t) => [index('alert_emails_rule_idx').on(t.rule_id, t.created_at)],
);
