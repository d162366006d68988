import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { SavedViewUpdateSchema } from '@fleet/shared/schemas/device-view';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { savedViews } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { auditedView, findOwnView, presentView } from './view-scope.ts';

/** Renames, re-filters or (un)shares one of the caller's views. */
export async function updateView(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  set: z.output<typeof SavedViewUpdateSchema>,
) {
  const before = await findOwnView(db, scope, actor, id);
  const entry = { action: 'view.update', entity: scope, target: { type: 'view', name: before.name } } as const;
  const complete = (r: typeof before) => ({ before: auditedView(before), after: auditedView(r) });
  const row = await audited(db, ctx, { ...entry, complete }, async (tx) => {
    const [updated] = await tx
      .update(savedViews)
      .set({ ...set, updated_at: sql`now()` })
      .where(eq(savedViews.id, id))
      .returning();
    return updated!;
  });
  return presentView(row, actor);
}
