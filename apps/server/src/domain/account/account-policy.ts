import type { Subtype } from '@fleet/shared/constants';
import { ENTITY_MANAGED_SUBTYPES, isSuperadmin, mayChange } from '@fleet/shared/access/rule';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { AccountUpdateSet } from '@fleet/shared/schemas/account';
import { forbidden } from '../../lib/http-error.ts';

/**
 * Who may do what to accounts (core §6): the shared rule (packages/shared/src/access/rule.ts),
 * enforced here rather than only hidden in the console, with the entity of the target added.
 * Callers have already checked that the target lies in an entity the actor may see.
 */

/** The landlord (a superadmin): the shared access rule's test, as plugins/auth.ts names it too. */
export const isLandlord: (actor: AccessClaims) => boolean = isSuperadmin;

/** An entity admin with all access manages the non-admin accounts of its own entity. */
export function isEntityManager(actor: AccessClaims, entity: string | null): boolean {
  return !isLandlord(actor) && mayChange(actor, 'accounts') && entity !== null && actor.entity === entity;
}

export function assertMayCreate(actor: AccessClaims, subtype: Subtype, entity: string | null): void {
  if (isLandlord(actor)) return;
  if (!isEntityManager(actor, entity)) throw forbidden('Only entity admins with all access create accounts');
  if (!ENTITY_MANAGED_SUBTYPES.includes(subtype))
    throw forbidden('Only superadmins create admin and superadmin accounts');
}

const SELF_EDITABLE: (keyof AccountUpdateSet)[] = ['email', 'password'];

export function assertMayUpdate(
  actor: AccessClaims,
  target: { name: string; subtype: Subtype; entity: string | null },
  set: AccountUpdateSet,
): void {
  if (isLandlord(actor)) return;
  const fields = Object.keys(set) as (keyof AccountUpdateSet)[];
  if (actor.sub === target.name) {
    const other = fields.filter((f) => !SELF_EDITABLE.includes(f));
    if (other.length > 0) throw forbidden(`You may change only your e-mail and password, not: ${other.join(', ')}`);
    return;
  }
  if (!isEntityManager(actor, target.entity)) throw forbidden('Only entity admins with all access change accounts');
  if (!ENTITY_MANAGED_SUBTYPES.includes(target.subtype)) throw forbidden('Admin accounts are managed by superadmins');
  if (set.subtype !== undefined && !ENTITY_MANAGED_SUBTYPES.includes(set.subtype)) {
    throw forbidden('Only superadmins grant admin rights');
  }
  if (set.entity !== undefined || set.access !== undefined) {
    throw forbidden('Only superadmins move accounts between entities or change access permissions');
  }
}

export function assertMayDelete(
  actor: AccessClaims,
  target: { name: string; subtype: Subtype; entity: string | null },
): void {
  if (actor.sub === target.name) throw forbidden('You cannot delete your own account');
  if (isLandlord(actor)) return;
  if (!isEntityManager(actor, target.entity)) throw forbidden('Only entity admins with all access delete accounts');
  if (!ENTITY_MANAGED_SUBTYPES.includes(target.subtype)) throw forbidden('Admin accounts are managed by superadmins');
}

/** Token management follows account management: oneself, a superadmin, or the entity's manager for non-admins. */
export function assertMayManageTokens(
  actor: AccessClaims,
  target: { name: string; subtype: Subtype; entity: string | null },
): void {
  if (actor.sub === target.name || isLandlord(actor)) return;
  if (isEntityManager(actor, target.entity) && ENTITY_MANAGED_SUBTYPES.includes(target.subtype)) return;
  throw forbidden('Only the account itself, its entity admin or a superadmin manage its tokens');
}
