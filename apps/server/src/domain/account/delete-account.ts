import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { accounts } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { announceRemoved, credentialsOf } from './account-credentials.ts';
import { assertMayDelete } from './account-policy.ts';
import { findAccountInScope, presentAccount, type Scope } from './account-scope.ts';

/** Deletes an account; its sessions and permanent tokens stop working at once. */
export async function deleteAccount(
  deps: Deps,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  name: string,
): Promise<void> {
  const target = await findAccountInScope(deps.db, name, scope);
  assertMayDelete(actor, target);
  const creds = await credentialsOf(deps.db, [target.id]);
  const entry = {
    action: 'account.delete',
    entity: target.entity,
    target: { type: 'account', name: target.name },
  } as const;
  await audited(deps.db, ctx, { ...entry, before: presentAccount(target) }, (tx) =>
    tx.delete(accounts).where(eq(accounts.id, target.id)),
  );
  announceRemoved(deps, creds);
}
