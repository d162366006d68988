import type { AuditAction, AuditTargetType } from '@fleet/shared/audit-actions';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import type { auditEntries } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { AuditContext } from './audit-context.ts';
import { changesOf, redact } from './redact.ts';

/** What an operation says about itself; the context adds who, from where and when. */
export interface AuditEntryInput {
  action: AuditAction;
  /** Where it happened; undefined: the context's acting entity, else landlord-level (null). */
  entity?: string | null;
  target: { type: AuditTargetType; name: string | null };
  /** The object before and after (either absent for a creation or a deletion); redacted here. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** Bulk operations: the count and the names. Redacted too. */
  details?: Record<string, unknown>;
  outcome?: 'success' | 'failure';
  reason?: string | null;
}

/** An entry known before the change, completed from its result (its after-state; null: nothing changed). */
export interface AuditEntry<T> extends AuditEntryInput {
  complete?: (result: T) => Partial<AuditEntryInput> | null;
}

/**
 * The row that records `input` in the context `ctx`: secrets redacted, the changes serialised once
 * (by the driver). Exported for a change that writes its entry in its own raw statement
 * (command/audited-insert.ts), which then marks `ctx.recorded`.
 */
export function entryRow(ctx: AuditContext, input: AuditEntryInput): typeof auditEntries.$inferInsert {
  const changes = input.before || input.after ? changesOf(input.before, input.after) : null;
  return {
    entity: input.entity === undefined ? (ctx.entity ?? null) : input.entity,
    actor_kind: ctx.actor.kind,
    actor_id: ctx.actor.id,
    actor_name: ctx.actor.name,
    actor_account: ctx.actor.account ?? null,
    address: ctx.address,
    user_agent: ctx.userAgent?.slice(0, 512) ?? null,
    action: input.action,
    target_type: input.target.type,
    target_name: input.target.name,
    outcome: input.outcome ?? 'success',
    reason: input.reason ?? null,
    changes,
    details: input.details ? redact(input.details) : null,
  };
}

type EntryRow = ReturnType<typeof entryRow>;

/**
 * The INSERT of one entry (every column entryRow fills; the id and time are the database's), its
 * values as parameters, written as SQL text: with drizzle's insert builder the entry's share of
 * building an audited creation's statement was a third larger (bench/notes/audit-and-history-cost.md).
 */
export function entryInsert(row: EntryRow): SQL {
  const { changes, details, ...plain } = row;
  const columns = Object.keys(plain) as Array<keyof typeof plain>;
  const json = (value: unknown) => sql`${value == null ? null : JSON.stringify(value)}::jsonb`;
  return sql`insert into "audit_entries" (${sql.raw(columns.join(', '))}, changes, details) values (${sql.join(
    columns.map((column) => sql`${plain[column] ?? null}`),
    sql`, `,
  )}, ${json(changes)}, ${json(details)})`;
}

/** Writes one entry with `db` (a transaction's handle to share its fate). */
export async function recordAudit(db: Executor, ctx: AuditContext, input: AuditEntryInput): Promise<void> {
  await db.execute(entryInsert(entryRow(ctx, input)));
  ctx.recorded = true;
}

/** What builds the change's one statement: `insert`, `update` or `delete`, as on a database handle. */
export type StatementBuilder = Pick<Executor, 'insert' | 'update' | 'delete'>;

/**
 * Given the handle the change runs on and what it knows of the entry only now (its after-state),
 * answers the builder of the change's statement with the entry's INSERT as a CTE of it. Called
 * once: the entry is written by the statement built with it, and by no other.
 */
export type WithEntry = (db: Executor, more?: Partial<AuditEntryInput>) => StatementBuilder;

/** For a change run without an entry (callers outside the API): its statement as it is. */
export const withoutEntry: WithEntry = (db) => db;

/**
 * Runs a change that is ONE statement (an INSERT, UPDATE or DELETE) whose entry is known before
 * it runs, and writes the entry in that same statement (`WITH audit_entry AS (INSERT …) INSERT …`):
 * one round trip to the database and no transaction, since a statement commits whole or not at
 * all (bench/notes/audit-and-history-cost.md). `change` builds its statement with what
 * `withEntry` answers; it may run other statements (reads, a transaction of its own) around it.
 *
 * Refusals (HttpError) are recorded as failures, as `audited` does.
 */
export async function auditedStatement<T>(
  db: Executor,
  ctx: AuditContext,
  entry: AuditEntryInput,
  change: (withEntry: WithEntry) => Promise<T>,
): Promise<T> {
  if (ctx.unaudited) return change(withoutEntry);
  let used = false;
  const withEntry: WithEntry = (on, more) => {
    if (used) throw new Error(`auditedStatement: the entry of ${entry.action} was given to a second statement`);
    used = true;
    return on.with(on.$with('audit_entry', {}).as(entryInsert(entryRow(ctx, { ...entry, ...more }))));
  };
  try {
    const result = await change(withEntry);
    if (!used) throw new Error(`auditedStatement: ${entry.action} ran without its entry`);
    ctx.recorded = true;
    return result;
  } catch (err) {
    if (err instanceof HttpError) await recordFailure(db, ctx, entry, err);
    throw err;
  }
}

/**
 * Runs `change` in a transaction and records its entry in that same transaction: the change and
 * its record commit together or not at all. `entry.complete` adds what the result tells (the
 * after-state); answering null records nothing (the change turned out to change nothing).
 *
 * A refusal (an HttpError: not found, conflict, forbidden…) rolls the change back and is then
 * recorded as a failure with its reason, outside the rolled-back transaction.
 */
export async function audited<T>(
  db: Executor,
  ctx: AuditContext,
  entry: AuditEntry<T>,
  change: (tx: Tx) => Promise<T>,
): Promise<T> {
  const { complete, ...base } = entry;
  // The same-run baseline of bench/audit-cost.mjs: the change alone, as before the audit log.
  if (ctx.unaudited) return change(db as Tx);
  try {
    return await (db as Db).transaction(async (tx) => {
      const result = await change(tx);
      const more = complete ? complete(result) : {};
      if (more) await recordAudit(tx, ctx, { ...base, ...more });
      return result;
    });
  } catch (err) {
    if (err instanceof HttpError) await recordFailure(db, ctx, base, err);
    throw err;
  }
}

/** Records a refused attempt that changed nothing (outside any change's transaction). */
export async function recordFailure(db: Executor, ctx: AuditContext, entry: AuditEntryInput, err: HttpError) {
  const { before: _b, after: _a, ...rest } = entry;
  await recordAudit(db, ctx, { ...rest, outcome: 'failure', reason: err.developerMessage || err.message }).catch(
    () => undefined,
  );
}
