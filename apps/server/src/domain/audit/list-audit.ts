import { and, count, eq, getTableColumns, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditFilter, AuditListQuery } from '@fleet/shared/schemas/audit';
import { COUNT_CAP } from '@fleet/shared/schemas/list';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { auditEntries } from '../../db/schema.ts';
import { rareParts, searchParts } from './search-parts.ts';

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
 * trigram index audit_entries_entity_search_trgm_idx (migration 0033, the entity its first key)
 * is on exactly this expression.
 */
const auditSearchText = sql.raw(
  `lower(coalesce("actor_name", '') || E'\\n' || coalesce("target_name", '') || E'\\n' || coalesce("reason", '') || E'\\n' || "action")`,
);

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Entries whose search text holds `text` (case-insensitive, `%` and `_` taken literally). */
const holds = (text: string) => sql`${auditSearchText} like lower(${like(text)})`;

/** The three ways an entry names an actor, each answered by an index of its own. */
const actorMatches = (actor: string) => [
  eq(auditEntries.actor_name, actor),
  // The same match as `actor_id = actor`, stated so audit_entries_actor_id_idx (partial) answers it.
  and(eq(auditEntries.actor_id, actor), sql`${auditEntries.actor_id} is distinct from ${auditEntries.actor_name}`),
  eq(auditEntries.actor_account, actor),
];

/** The WHERE of a scope and its filters; a tenant's scope ignores any `entity` filter. */
export function auditWhere(scope: AuditScope, f: AuditFilter): SQL | undefined {
  const t = auditEntries;
  const entity = scope ?? f.entity;
  const parts: Array<SQL | undefined> = [
    entity === undefined ? undefined : entity === LANDLORD && scope === null ? isNull(t.entity) : eq(t.entity, entity),
    f.from ? gte(t.at, new Date(f.from)) : undefined,
    f.to ? lt(t.at, new Date(f.to)) : undefined,
    f.actor ? or(...actorMatches(f.actor)) : undefined,
    f.action ? eq(t.action, f.action) : undefined,
    f.target_type ? eq(t.target_type, f.target_type) : undefined,
    f.target_name ? eq(t.target_name, f.target_name) : undefined,
    f.outcome ? eq(t.outcome, f.outcome) : undefined,
    f.search ? holds(f.search) : undefined,
  ];
  return and(...parts);
}

/**
 * Newest first, in the order of audit_entries_at_idx and audit_entries_entity_at_idx (migration
 * 0011: `desc nulls last`; both columns hold no null). A bare `desc` means `nulls first`, which
 * no index answers: every read sorted the whole filtered scope.
 */
export const newestFirst = [sql`${auditEntries.at} desc nulls last`, sql`${auditEntries.id} desc nulls last`];

/** The page's rows with each one's place in the order as PostgreSQL's text (a Date drops microseconds). */
const withKey = { ...getTableColumns(auditEntries), key: sql<string>`${auditEntries.at}::text`.as('key') };

/**
 * The ids that can be on a page of an actor's entries: each of the three matches' first
 * offset + limit in order, read from its own index, which holds every page's rows. One walk of the
 * scope's time index filtered by the three (the planner's choice for the OR) reads every entry of
 * the scope when the actor has none or few there.
 */
function actorPageIds(db: Db, scope: AuditScope, q: AuditListQuery, actor: string) {
  const rest = auditWhere(scope, { ...q, actor: undefined });
  const branches = actorMatches(actor).map(
    (match) =>
      sql`(${db
        .select({ id: auditEntries.id })
        .from(auditEntries)
        .where(and(rest, match))
        .orderBy(...newestFirst)
        .limit(q.offset + q.limit)})`,
  );
  return sql.join(branches, sql` union all `);
}

/** Entries of the scope's newest a count's choice of search parts is made from. */
const SAMPLE = 200;

/**
 * The WHERE a full page's count reads for `q`: as the page's, except that a free text of several
 * words gives the trigram index only the words that are not in most entries (of the scope's
 * newest SAMPLE): the index's cost is every posting it reads, and a word in every entry ("unit" of
 * "unit_42") is a posting per entry. The whole search is then matched on the rows, where no index
 * takes it (`is true`). Same rows: docs/decisions/2026-11-29-audit-search-count-by-rare-words.md.
 */
export async function countWhere(db: Db, scope: AuditScope, q: AuditListQuery): Promise<SQL | undefined> {
  const parts = q.search ? searchParts(q.search) : [];
  if (!q.search || parts.length < 2) return auditWhere(scope, q);
  const rest = auditWhere(scope, { ...q, search: undefined });
  // The scope's newest in the page's time range, whatever the other filters (an actor's own
  // entries may be few: a walk for 200 of them could read the whole scope).
  const newest = db
    .select({ t: sql<string>`${auditSearchText}`.as('t') })
    .from(auditEntries)
    .where(auditWhere(scope, { entity: q.entity, from: q.from, to: q.to }))
    .orderBy(...newestFirst)
    .limit(SAMPLE)
    .as('newest');
  const [row] = rowsOf<Record<string, number>>(
    await db.execute(
      sql`select count(*)::int as n, ${sql.join(
        parts.map((part, i) => sql`count(*) filter (where t like lower(${like(part)}))::int as ${sql.raw(`h${i}`)}`),
        sql`, `,
      )} from ${newest}`,
    ),
  );
  const keep = rareParts(
    parts,
    parts.map((_, i) => row?.[`h${i}`] ?? 0),
    row?.n ?? 0,
  );
  if (!keep) return auditWhere(scope, q);
  return and(rest, ...keep.map(holds), sql`(${holds(q.search)}) is true`);
}

/**
 * A page of entries, newest first, with the total of the filtered scope exact up to
 * `offset + limit + cap`: above that, `total` is that bound and `total_is_lower_bound` is true.
 * A short page is its own total (offset + its rows). A full one counts from its first row on, by
 * keyset in index order, so the count reads `limit + cap` entries at most whatever the offset;
 * an empty page past the end counts the scope up to `offset`. The cap (COUNT_CAP):
 * docs/decisions/2026-11-29-audit-total-from-the-page.md, amending 2026-11-28-audit-total-capped.md.
 */
export async function listAudit(db: Db, scope: AuditScope, q: AuditListQuery, cap = COUNT_CAP) {
  const where = auditWhere(scope, q);
  const rows = await db
    .select(withKey)
    .from(auditEntries)
    .where(q.actor ? sql`${auditEntries.id} in (${actorPageIds(db, scope, q, q.actor)})` : where)
    .orderBy(...newestFirst)
    .limit(q.limit)
    .offset(q.offset);
  const data = rows.map(presentAudit);
  const counted = async (from: SQL | undefined, bound: number, filter = where) => {
    const sub = db
      .select({ one: sql`1` })
      .from(auditEntries)
      .where(and(filter, from))
      .limit(bound + 1)
      .as('counted');
    const [total] = await db.select({ n: count() }).from(sub);
    return total?.n ?? 0;
  };
  const first = rows[0];
  if (!first || rows.length < q.limit) {
    // A short page ends the scope; an empty one past its end counts what there is (at most offset).
    const total =
      first || q.offset === 0 ? q.offset + rows.length : Math.min(await counted(undefined, q.offset), q.offset);
    return { data, total, total_is_lower_bound: false };
  }
  const bound = q.limit + cap;
  const from = sql`(${auditEntries.at}, ${auditEntries.id}) <= (${first.key}::timestamptz, ${first.id}::bigint)`;
  const n = await counted(from, bound, await countWhere(db, scope, q));
  return { data, total: q.offset + Math.min(n, bound), total_is_lower_bound: n > bound };
}
