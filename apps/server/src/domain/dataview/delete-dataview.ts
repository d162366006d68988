import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { dataviews } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { assertMayChangeDataviews } from './dataview-policy.ts';
import { findDataview, presentDataview } from './dataview-scope.ts';

/** Deletes one dataview of the entity; its authorised-account rows go with it. */
export async function deleteDataview(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
): Promise<void> {
  assertMayChangeDataviews(actor);
  const target = await findDataview(db, actor, entity, name);
  const before = presentDataview(target, target.authorized_accounts);
  const entry = { action: 'dataview.delete', entity, target: { type: 'dataview', name: target.name } } as const;
  await audited(db, ctx, { ...entry, before }, (tx) => tx.delete(dataviews).where(eq(dataviews.id, target.id)));
}
