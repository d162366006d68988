import { mayChangeDataviews } from '@fleet/shared/dataview-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';

type Claims = Pick<AccessClaims, 'subtype' | 'permissions'> | null;

/**
 * Add, edit, designer, download and delete show only for an admin with all access or
 * Dataview_all (fleet §6): the shared rule the server enforces, less the superadmin it also lets act.
 */
export function canChangeDataviews(claims: Claims): boolean {
  return claims?.subtype === 'admin' && mayChangeDataviews(claims);
}

/** The landlord list's actions column and the designer: the shared rule, superadmins included (fleet §6). */
export function showLandlordActions(claims: Claims): boolean {
  return mayChangeDataviews(claims);
}
