import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { recordset, rowsOf } from '../../db/raw-sql.ts';
import { auditEntries } from '../../db/schema.ts';
import type { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from './audit-context.ts';
import { entryRow, recordFailure, type AuditEntryInput } from './audited.ts';

interface Options {
  /** The error when the change matched no row (recorded as a failure, without before/after/details). */
  none?: () => HttpError;
  /** The entry's `details` as an expression over the change's row `c` and the entry `v` (default `v.details`). */
  details?: SQL;
}

/**
 * Runs `change`, ONE `insert`/`update`/`delete … returning`, with its entry in the same
 * statement, written only for what it changed:
 * `with c as (<change>), logged as (insert into audit_entries … select … from c) select c.* from c`.
 * One round trip and no transaction (BEGIN, change, entry, COMMIT are four on the embedded
 * database's one connection); the entry commits with the change or not at all, and a change
 * that matched no row leaves none. Then `none()` is thrown (recorded as a failure) if given.
 * For a change of one row: each row it returns gets the entry.
 */
export async function auditedReturning<R>(
  db: Executor,
  ctx: AuditContext,
  entry: AuditEntryInput,
  change: SQL,
  { none, details }: Options = {},
): Promise<R[]> {
  if (ctx.unaudited) {
    const rows = rowsOf<R>(await db.execute(change));
    if (rows.length === 0 && none) throw none();
    return rows;
  }
  const row = entryRow(ctx, entry);
  const columns = Object.keys(row) as Array<keyof typeof row>;
  const values = columns.map((c) => (c === 'details' && details ? details : sql.raw(`v.${c}`)));
  const rows = rowsOf<R>(
    await db.execute(sql`
      with c as (${change}),
      logged as (
        insert into audit_entries (${sql.raw(columns.join(', '))})
        select ${sql.join(values, sql`, `)} from c, ${recordset([row], { table: auditEntries, columns })})
      select c.* from c`),
  );
  if (rows.length > 0) {
    ctx.recorded = true;
    return rows;
  }
  if (!none) return rows;
  const err = none();
  const { before: _b, after: _a, details: _d, ...refused } = entry;
  await recordFailure(db, ctx, refused, err);
  throw err;
}
