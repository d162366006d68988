import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { savedViews } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { auditedView, findOwnView } from './view-scope.ts';

/** Deletes one of the caller's views. */
export async function deleteView(db: Db, ctx: AuditContext, actor: AccessClaims, scope: Scope, id: string) {
  const row = await findOwnView(db, scope, actor, id);
  const entry = { action: 'view.delete', entity: scope, target: { type: 'view', name: row.name } } as const;
  await audited(db, ctx, { ...entry, before: auditedView(row) }, (tx) =>
    tx.delete(savedViews).where(eq(savedViews.id, id)),
  );
}
