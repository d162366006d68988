import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { SavedView } from '@fleet/shared/schemas/device-view';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { savedViews } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';

export type ViewRow = typeof savedViews.$inferSelect;

/** The views of a scope: an entity's, or (null) the landlord's own list's. */
export const viewsOf = (scope: Scope): SQL =>
  scope === null ? isNull(savedViews.entity) : eq(savedViews.entity, scope);

/** What the caller sees in the scope: its own views and the shared ones, never another scope's. */
export const visibleTo = (scope: Scope, actor: AccessClaims) =>
  and(viewsOf(scope), or(eq(savedViews.owner, actor.sub), eq(savedViews.shared, true)))!;

export const presentView = (row: ViewRow, actor: AccessClaims): SavedView => ({
  id: row.id,
  name: row.name,
  query: row.query,
  shared: row.shared,
  owner: row.owner,
  mine: row.owner === actor.sub,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** What an audit entry keeps of a view. */
export const auditedView = (row: ViewRow) => ({ name: row.name, query: row.query, shared: row.shared });

/**
 * A view the caller may change: its own. Another's private view or another scope's is not found;
 * a view shared with the caller is seen but not the caller's to change (403).
 */
export async function findOwnView(db: Db, scope: Scope, actor: AccessClaims, id: string): Promise<ViewRow> {
  const [row] = await db
    .select()
    .from(savedViews)
    .where(and(visibleTo(scope, actor), eq(savedViews.id, id)));
  if (!row) throw notFound('View');
  if (row.owner !== actor.sub) throw forbidden('Only its owner changes a saved view');
  return row;
}
