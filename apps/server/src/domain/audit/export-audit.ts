import { and, sql } from 'drizzle-orm';
import type { AuditFilter } from '@fleet/shared/schemas/audit';
import type { Db } from '../../db/client.ts';
import { csvFields, csvJson, exportLines, plain, type ExportReads, type LineKey } from '../../db/export-lines.ts';
import { auditEntries } from '../../db/schema.ts';
import { auditWhere, newestFirst, type AuditScope } from './list-audit.ts';

export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'entity',
  'actor_kind',
  'actor_id',
  'actor_name',
  'actor_account',
  'address',
  'user_agent',
  'action',
  'target_type',
  'target_name',
  'outcome',
  'reason',
  'changes',
  'details',
] as const;

const t = auditEntries;
/** The time as the list presents it (toISOString: UTC, milliseconds). */
const isoAt = sql`to_char(${t.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An entry's CSV line, written by the database: the header's fields, JSON values as jsonb text;
 * the same bytes as csvLine of the sixteen. `changes` (a third of the entries) holds quotes, which
 * sent csvLine's whole line down its escaping path, every field written again: the two JSON
 * fields are escaped on their own, so the others stay on the common path (2026-11-29: 13.6 → 11 µs
 * of CPU a row on the kept 1M fill; bench/notes/audit-and-history-cost.md), each by csvJson, which
 * makes its jsonb text once.
 */
const csvEntry = sql`${csvFields([
  plain(sql`${t.id}::text`),
  plain(isoAt),
  sql`${t.entity}`,
  sql`${t.actor_kind}`,
  sql`${t.actor_id}`,
  sql`${t.actor_name}`,
  sql`${t.actor_account}`,
  sql`${t.address}`,
  sql`${t.user_agent}`,
  sql`${t.action}`,
  sql`${t.target_type}`,
  sql`${t.target_name}`,
  sql`${t.outcome}`,
  sql`${t.reason}`,
])} || ',' || ${csvJson(sql`${t.changes}`)} || ',' || ${csvJson(sql`${t.details}`)} || chr(13) || chr(10)`;

/** An entry as the list presents it (presentAudit), as JSON text preceded by a comma. */
const jsonEntry = sql`',' || json_build_object('id', ${t.id}::text, 'at', ${isoAt}, 'entity', ${t.entity},
  'actor', json_build_object('kind', ${t.actor_kind}, 'id', ${t.actor_id}, 'name', ${t.actor_name},
    'account', ${t.actor_account}),
  'address', ${t.address}, 'user_agent', ${t.user_agent}, 'action', ${t.action},
  'target', json_build_object('type', ${t.target_type}, 'name', ${t.target_name}),
  'outcome', ${t.outcome}, 'reason', ${t.reason}, 'changes', ${t.changes}, 'details', ${t.details})::text`;

/** Lines of a batch the database joins into one text: an entry's line runs to a few hundred bytes. */
const PART = 250;

/**
 * The export's body: CSV with a header, or a JSON array, newest first as the list. One walk of
 * the filtered scope by keyset in index order (at, id descending: audit_entries_entity_at_idx for
 * an entity, audit_entries_at_idx for every entity), `batch` entries a read, the next read asked
 * for before this one is written. The database writes and joins the lines
 * (docs/decisions/2026-11-28-audit-export-lines-in-the-database.md); JSON values inside the file
 * are PostgreSQL's jsonb text, equal to the list's once parsed.
 */
export async function* exportAudit(
  db: Db,
  scope: AuditScope,
  f: AuditFilter,
  format: 'csv' | 'json',
  { batch = 5_000, part = PART, parts }: ExportReads = {},
): AsyncGenerator<string | Buffer> {
  const where = auditWhere(scope, f);
  const batchQuery = (after: LineKey | undefined) =>
    db
      .select({
        line: sql`${format === 'csv' ? csvEntry : jsonEntry}`.as('line'),
        id: sql`${t.id}`.as('id'),
        // Written as PostgreSQL's text by exportLines: a Date would drop the microseconds and skip rows.
        key: sql`${t.at}`.as('key'),
      })
      .from(t)
      .where(and(where, after && sql`(${t.at}, ${t.id}) < (${after.key}::timestamptz, ${after.id}::bigint)`))
      .orderBy(...newestFirst)
      .limit(batch)
      .toSQL();
  if (format === 'csv') {
    yield AUDIT_CSV_COLUMNS.join(',') + '\r\n';
    yield* exportLines(db, batchQuery, { batch, part, parts });
    return;
  }
  // Every entry comes with a comma before it: the first one's is dropped.
  let first = true;
  yield '[';
  for await (const text of exportLines(db, batchQuery, { batch, part, parts })) {
    yield first ? text.subarray(1) : text;
    first = false;
  }
  yield ']';
}

/** The download's file name: the entity (or `all`) and the day. */
export const exportName = (scope: string, format: 'csv' | 'json', now = new Date()) =>
  `audit-${scope.replace(/[^A-Za-z0-9_-]/g, '_')}-${now.toISOString().slice(0, 10)}.${format}`;
