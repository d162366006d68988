import { eq } from 'drizzle-orm';
import { ENTITY_MANAGED_SUBTYPES } from '@fleet/shared/access/rule';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { TwoFactorRequirement } from '@fleet/shared/schemas/two-factor';
import type { Executor } from '../../db/client.ts';
import { accountTotp, totpChallenges, totpRecoveryCodes, totpRequirements } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/http-error.ts';
import { isEntityManager, isLandlord } from '../account/account-policy.ts';
import { findAccountInScope, type Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';

/** The requirement row's key: an entity's name, or '' for the superadmins (the plain path). */
const keyOf = (scope: Scope) => scope ?? '';

/** Whether the scope's admins must use a second factor. */
export async function getRequirement(db: Executor, scope: Scope): Promise<TwoFactorRequirement> {
  const [row] = await db
    .select()
    .from(totpRequirements)
    .where(eq(totpRequirements.scope, keyOf(scope)))
    .limit(1);
  return { required_for_admins: Boolean(row) };
}

/**
 * Requires (or no longer requires) a second factor of the scope's admins: an entity's admin with
 * all access (or a superadmin) for the entity, a superadmin for the superadmins.
 */
export async function setRequirement(
  deps: Deps,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  required: boolean,
): Promise<TwoFactorRequirement> {
  if (!isLandlord(actor) && !isEntityManager(actor, scope)) {
    throw forbidden('Only entity admins with all access require two-factor sign-in');
  }
  const entry = {
    action: 'account.two_factor_requirement',
    entity: scope,
    target: { type: 'account', name: null },
    after: { required_for_admins: required },
  } as const;
  await audited(deps.db, ctx, entry, async (tx) => {
    if (!required) return tx.delete(totpRequirements).where(eq(totpRequirements.scope, keyOf(scope)));
    return tx
      .insert(totpRequirements)
      .values({ scope: keyOf(scope), set_by: actor.sub })
      .onConflictDoNothing();
  });
  return { required_for_admins: required };
}

/**
 * Removes another account's second factor (a lost phone): a superadmin for anyone, an entity's
 * admin with all access for its entity's non-admin accounts, as account management goes. The
 * account signs in with its password again, and enrols anew (at once when its scope requires it).
 */
export async function resetTwoFactor(
  deps: Deps,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  name: string,
): Promise<void> {
  const target = await findAccountInScope(deps.db, name, scope);
  if (actor.sub === target.name) throw forbidden('You cannot reset your own second factor: use a recovery code');
  const manages = isEntityManager(actor, target.entity) && ENTITY_MANAGED_SUBTYPES.includes(target.subtype);
  if (!isLandlord(actor) && !manages) {
    throw forbidden("Only the account's entity admin or a superadmin reset its second factor");
  }
  const entry = {
    action: 'account.two_factor_reset',
    entity: target.entity,
    target: { type: 'account', name },
  } as const;
  await audited(deps.db, ctx, entry, async (tx) => {
    const gone = await tx.delete(accountTotp).where(eq(accountTotp.account_id, target.id)).returning();
    if (gone.length === 0) throw notFound('Second factor');
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.account_id, target.id));
    await tx.delete(totpChallenges).where(eq(totpChallenges.account_id, target.id));
  });
}
