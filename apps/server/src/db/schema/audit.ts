// The audit log (issue 26; docs/audit.md): append-only, one row a recorded action.
import type { AuditAction, AuditActorKind, AuditOutcome, AuditTargetType } from '@fleet/shared/audit-actions';
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * No foreign keys: an entry outlives its entity, actor and target. Rows are only inserted (a
 * trigger refuses updates) and removed by the retention sweep.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigint('id', { mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** null: a landlord-level action. */
    entity: text('entity'),
    actor_kind: text('actor_kind').$type<AuditActorKind>().notNull(),
    actor_id: text('actor_id'),
    actor_name: text('actor_name'),
    /** The account a permanent token acts for. */
    actor_account: text('actor_account'),
    address: text('address'),
    user_agent: text('user_agent'),
    action: text('action').$type<AuditAction>().notNull(),
    target_type: text('target_type').$type<AuditTargetType>().notNull(),
    target_name: text('target_name'),
    outcome: text('outcome').$type<AuditOutcome>().notNull(),
    reason: text('reason'),
    changes: jsonb('changes').$type<{ before?: Record<string, unknown>; after?: Record<string, unknown> }>(),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    // Newest first within an entity, and for every entity (the superadmin; retention).
    index('audit_entries_entity_at_idx').on(t.entity, t.at.desc(), t.id.desc()),
    index('audit_entries_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_entries_action_idx').on(t.entity, t.action, t.at.desc()),
    index('audit_entries_actor_idx').on(t.entity, t.actor_name, t.at.desc()),
    index('audit_entries_target_idx').on(t.entity, t.target_type, t.target_name, t.at.desc()),
    // Partial (migration 0030): the rare entries the list's outcome and actor filters look for.
    index('audit_entries_entity_failure_idx')
      .on(t.entity, t.at.desc(), t.id.desc())
      .where(sql`outcome = 'failure'`),
    index('audit_entries_failure_idx')
      .on(t.at.desc(), t.id.desc())
      .where(sql`outcome = 'failure'`),
    index('audit_entries_actor_id_idx')
      .on(t.entity, t.actor_id, t.at.desc())
      .where(sql`actor_id is distinct from actor_name`),
    index('audit_entries_actor_account_idx')
      .on(t.entity, t.actor_account, t.at.desc())
      .where(sql`actor_account is not null`),
  ],
);
