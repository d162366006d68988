import { and, count, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditFilter, AuditListQuery } from '@fleet/shared/schemas/audit';
import type { Db } from '../../db/client.ts';
import { auditEntries } from '../../db/schema.ts';

type Row = typeof auditEntries.$inferSelect;
/** `null`: every entity (the superadmin's path, where `filter.entity` may narrow it). */
export type AuditScope = string | null;

/** The ENTITY of a superadmin's `entity` filter that means landlord-level entries. */
const LANDLORD = 'landlord';

export const presentAudit = (row: Row): AuditEntry => ({
  id: String(row.id),
  at: row.at.toISOString(),
  entity: row.entity,
  actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name, account: row.actor_account },
  address: row.address,
  user_agent: row.user_agent,
  action: row.action,
  target: { type: row.target_type, name: row.target_name },
  outcome: row.outcome,
  reason: row.reason,
  changes: row.changes ?? null,
  details: row.details ?? null,
});

/**
 * What the free text searches: actor, target, reason and action, lower-cased, one per line. The
 * trigram index audit_entries_search_trgm_idx (migration 0015) is on exactly this expression.
 */
const auditSearchText = sql.raw(
  `lower(coalesce("actor_name", '') || E'\\n' || coalesce("target_name", '') || E'\\n' || coalesce("reason", '') || E'\\n' || "action")`,
);

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE of a scope and its filters; a tenant's scope ignores any `entity` filter. */
export function auditWhere(scope: AuditScope, f: AuditFilter): SQL | undefined {
  const t = auditEntries;
  const entity = scope ?? f.entity;
  const parts: Array<SQL | undefined> = [
    entity === undefined ? undefined : entity === LANDLORD && scope === null ? isNull(t.entity) : eq(t.entity, entity),
    f.from ? gte(t.at, new Date(f.from)) : undefined,
    f.to ? lt(t.at, new Date(f.to)) : undefined,
    f.actor
      ? or(
          eq(t.actor_name, f.actor),
          // The same match as `actor_id = actor`, stated so audit_entries_actor_id_idx (partial) answers it.
          and(eq(t.actor_id, f.actor), sql`${t.actor_id} is distinct from ${t.actor_name}`),
          eq(t.actor_account, f.actor),
        )
      : undefined,
    f.action ? eq(t.action, f.action) : undefined,
    f.target_type ? eq(t.target_type, f.target_type) : undefined,
    f.target_name ? eq(t.target_name, f.target_name) : undefined,
    f.outcome ? eq(t.outcome, f.outcome) : undefined,
    f.search ? sql`${auditSearchText} like lower(${like(f.search)})` : undefined,
  ];
  return and(...parts);
}

/**
 * Newest first, in the order of audit_entries_at_idx and audit_entries_entity_at_idx (migration
 * 0011: `desc nulls last`; both columns hold no null). A bare `desc` means `nulls first`, which
 * no index answers: every read sorted the whole filtered scope.
 */
export const newestFirst = [sql`${auditEntries.at} desc nulls last`, sql`${auditEntries.id} desc nulls last`];

/**
 * How far past the page's start the total is counted (docs/decisions/2026-11-28-audit-total-capped.md):
 * a filter matching more answers this bound with `total_is_lower_bound`, so no page counts a
 * million rows, and the pager can always reach the next page.
 */
export const AUDIT_COUNT_CAP = 10_000;

/**
 * A page of entries, newest first, with the total of the filtered scope counted exactly up to
 * `offset + cap`: above that, `total` is that bound and `total_is_lower_bound` is true.
 */
export async function listAudit(db: Db, scope: AuditScope, q: AuditListQuery, cap = AUDIT_COUNT_CAP) {
  const where = auditWhere(scope, q);
  const bound = q.offset + cap;
  const counted = db
    .select({ one: sql`1` })
    .from(auditEntries)
    .where(where)
    .limit(bound + 1)
    .as('counted');
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditEntries)
      .where(where)
      .orderBy(...newestFirst)
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(counted),
  ]);
  const n = total?.n ?? 0;
  return { data: rows.map(presentAudit), total: Math.min(n, bound), total_is_lower_bound: n > bound };
}
