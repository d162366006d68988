// Alerts (issue 29; docs/alerts.md): rules per entity and alerts kept as history (0017_alerts.sql).
import type { AlertRuleKind, AlertScope } from '@fleet/shared/schemas/alert';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { devices } from './fleet.ts';
import { rollouts } from './rollouts.ts';
import { entities } from './tenants.ts';

export const alertRules = pgTable(
  'alert_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<AlertRuleKind>().notNull(),
    scope: text('scope').$type<AlertScope>().notNull().default('entity'),
    scope_name: text('scope_name'),
    threshold: integer('threshold'),
    start_delay_s: integer('start_delay_s').notNull().default(0),
    clear_delay_s: integer('clear_delay_s').notNull().default(0),
    severity: text('severity').$type<'info' | 'warning' | 'critical'>().notNull().default('warning'),
    enabled: boolean('enabled').notNull().default(true),
    /** Delivery (0019_alert_delivery.sql): e-mail addresses, and whether the entity's webhooks get it. */
    email_to: text('email_to')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    webhook: boolean('webhook').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    unique('alert_rules_entity_name_key').on(t.entity, t.name),
    index('alert_rules_entity_kind_idx')
      .on(t.entity, t.kind)
      .where(sql`enabled`),
  ],
);

/** status: pending (start delay running; not shown) → active → acknowledged → cleared. */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entity: text('entity')
      .notNull()
      .references(() => entities.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    rule_id: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    /** The device the alert is about; null for a rollout's alert (0018). */
    device: text('device').references(() => devices.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    /** The rollout a `rollout_paused` alert is about (then there is no device). */
    rollout: uuid('rollout').references(() => rollouts.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'active' | 'acknowledged' | 'cleared'>().notNull(),
    condition_since: timestamp('condition_since', { withTimezone: true }).notNull(),
    raised_at: timestamp('raised_at', { withTimezone: true }),
    acknowledged_at: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledged_by: text('acknowledged_by'),
    /** The condition stopped holding at; the alert clears once the rule's clear delay has passed. */
    condition_ended_at: timestamp('condition_ended_at', { withTimezone: true }),
    cleared_at: timestamp('cleared_at', { withTimezone: true }),
    cleared_by: text('cleared_by'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('alerts_open_key')
      .on(t.rule_id, t.device)
      .where(sql`status <> 'cleared'`),
    uniqueIndex('alerts_open_rollout_key')
      .on(t.rule_id, t.rollout)
      .where(sql`status <> 'cleared' and rollout is not null`),
    check('alerts_subject_check', sql`num_nonnulls(device, rollout) = 1`),
    index('alerts_entity_raised_idx')
      .on(t.entity, t.raised_at.desc(), t.id.desc().nullsFirst())
      .where(sql`status <> 'pending'`),
    index('alerts_entity_open_idx')
      .on(t.entity, t.status)
      .where(sql`status in ('active', 'acknowledged')`),
    index('alerts_device_idx').on(t.device, t.raised_at.desc()),
    index('alerts_pending_idx')
      .on(t.condition_since)
      .where(sql`status = 'pending'`),
    index('alerts_ending_idx')
      .on(t.condition_ended_at)
      .where(sql`condition_ended_at is not null and status <> 'cleared'`),
  ],
);
