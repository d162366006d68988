import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Selection } from '@fleet/shared/schemas/device-view';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { deviceSelections } from '../../db/schema.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';

export type SelectionRow = typeof deviceSelections.$inferSelect;
export type SelectionAction = NonNullable<Selection['action']>;

/** Devices a job handles at a time: one insert or delete and one publication round each. */
export const SELECTION_BATCH = 500;
/** How long a run's lease holds without news from its holder; it is renewed well within that. */
export const SELECTION_LEASE_MS = 30_000;
/** How long a dry run's set may be acted on. */
export const SELECTION_TTL_MS = 60 * 60_000;
/** Names an audit entry of a selection's action lists (the count is always whole). */
export const AUDIT_NAMES_MAX = 100;

const inScope = (scope: Scope) =>
  scope === null ? isNull(deviceSelections.entity) : eq(deviceSelections.entity, scope);

/** A selection of the caller in the scope; another caller's or another scope's is not found. */
export async function findSelection(db: Db, scope: Scope, actor: AccessClaims, id: string): Promise<SelectionRow> {
  const [row] = await db
    .select()
    .from(deviceSelections)
    .where(and(inScope(scope), eq(deviceSelections.owner, actor.sub), eq(deviceSelections.id, id)));
  if (!row) throw notFound('Selection');
  return row;
}

/**
 * Takes a counted selection for one action, once, with the action's arguments (what a resumed run
 * reads) and the lease of the instance that will run it: a second action, or one after it expired,
 * is refused (the dry run must be done again).
 */
export async function claimSelection(
  db: Db,
  row: SelectionRow,
  action: SelectionAction,
  args: Record<string, unknown>,
  holder: string,
): Promise<SelectionRow> {
  const [claimed] = await db
    .update(deviceSelections)
    .set({
      action,
      state: 'running',
      args,
      started_at: sql`now()`,
      lease_holder: holder,
      lease_until: sql`now() + make_interval(secs => ${SELECTION_LEASE_MS / 1000})`,
    })
    .where(
      and(
        eq(deviceSelections.id, row.id),
        eq(deviceSelections.state, 'counted'),
        gt(deviceSelections.expires_at, sql`now()`),
      ),
    )
    .returning();
  if (!claimed) {
    throw new HttpError(409, 'Count the matching devices again', 'The selection was acted on already or has expired', {
      id: ['Count the matching devices again'],
    });
  }
  return claimed;
}

export const presentSelection = (row: SelectionRow, counts?: Record<string, number>): Selection => ({
  id: row.id,
  total: row.total,
  query: row.query,
  action: row.action as SelectionAction | null,
  state: row.state,
  done: row.done,
  ...(counts && { counts }),
  expires_at: row.expires_at.toISOString(),
});
