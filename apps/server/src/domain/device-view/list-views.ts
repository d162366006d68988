import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { savedViews } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import { presentView, visibleTo } from './view-scope.ts';

/** The caller's views and the shared ones of the scope, by name. */
export async function listViews(db: Db, scope: Scope, actor: AccessClaims) {
  const rows = await db
    .select()
    .from(savedViews)
    .where(visibleTo(scope, actor))
    .orderBy(savedViews.name, savedViews.id);
  return { data: rows.map((r) => presentView(r, actor)), total: rows.length };
}
