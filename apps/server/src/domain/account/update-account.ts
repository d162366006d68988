import { eq } from 'drizzle-orm';
import { MESSAGES } from '@fleet/shared/validation';
import type { AccountUpdateSet } from '@fleet/shared/schemas/account';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { accounts } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { invalidField } from '../../lib/http-error.ts';
import { hashPassword } from '../../lib/password.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { assertKnownEntity } from '../entity/entity-exists.ts';
import { endSessions } from '../session/end-sessions.ts';
import { familiesOf } from '../session/session-guard.ts';
import { forgetTokens, tokenHashesOf } from './account-credentials.ts';
import { assertMayUpdate } from './account-policy.ts';
import { findAccountInScope, presentAccount, type Scope } from './account-scope.ts';
import { nameTaken } from './create-account.ts';

// Changing any of these changes what the account's tokens claim: its sessions must start again.
const CLAIM_FIELDS: (keyof AccountUpdateSet)[] = ['name', 'subtype', 'entity', 'access'];

/**
 * Applies `$set` to an account. A new password ends the account's other sessions; a change to
 * its name, type, entity or access ends all of them, so no token claims stale rights.
 */
export async function updateAccount(
  deps: Deps,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  name: string,
  input: AccountUpdateSet,
) {
  const target = await findAccountInScope(deps.db, name, scope);
  const set = { ...input };
  if (set.name === target.name) delete set.name;
  assertMayUpdate(actor, target, set);

  const subtype = set.subtype ?? target.subtype;
  let entity = set.entity !== undefined ? set.entity : target.entity;
  if (subtype === 'sadmin') entity = null;
  else if (entity === null) throw invalidField('entity', MESSAGES.required);
  if (entity !== null && entity !== target.entity) await assertKnownEntity(deps.db, entity, 'entity');

  const values: Partial<typeof accounts.$inferInsert> = { updated_at: new Date() };
  if (set.name !== undefined) values.name = set.name;
  if (set.email !== undefined) values.email = set.email;
  if (set.password !== undefined) values.password_hash = await hashPassword(set.password);
  if (set.subtype !== undefined || set.entity !== undefined) Object.assign(values, { subtype, entity });
  if (subtype === 'sadmin') values.access = ['all'];
  else if (set.access !== undefined) values.access = set.access;

  const before = presentAccount(target);
  const entry = {
    action: 'account.update',
    entity: target.entity,
    target: { type: 'account', name: target.name },
    // A new password is recorded as changed, never its value or hash.
    ...(set.password !== undefined ? { details: { password_changed: true } } : {}),
  } as const;
  const row = await audited(
    deps.db,
    ctx,
    { ...entry, complete: (r: typeof accounts.$inferSelect) => ({ before, after: presentAccount(r) }) },
    async (tx) => {
      try {
        const [updated] = await tx.update(accounts).set(values).where(eq(accounts.id, target.id)).returning();
        return updated!;
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken('name');
        throw err;
      }
    },
  );

  const claimsChanged = CLAIM_FIELDS.some((f) => set[f] !== undefined);
  if (claimsChanged || set.password !== undefined) {
    // Your own password change keeps the session you made it from.
    const keep = !claimsChanged && actor.sub === target.name ? actor.fam : undefined;
    await endSessions(deps, await familiesOf(deps.db, [target.id], keep));
  }
  if (claimsChanged) forgetTokens(deps, await tokenHashesOf(deps.db, [target.id]));
  return presentAccount(row);
}
