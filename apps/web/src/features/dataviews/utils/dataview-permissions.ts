import type { AccessClaims } from '@fleet/shared/schemas/session';

/**
 * Add, edit, designer, download and delete show only for an admin with all access or
 * Dataview_all (fleet §6); the server enforces the same rule (and lets superadmins act).
 */
export function canChangeDataviews(claims: Pick<AccessClaims, 'subtype' | 'permissions'> | null): boolean {
  if (!claims) return false;
  return claims.subtype === 'admin' && claims.permissions.some((p) => p === 'all' || p === 'Dataview_all');
}

/** The landlord list's actions column: under that rule or for a superadmin (fleet §6). */
export function showLandlordActions(claims: Pick<AccessClaims, 'subtype' | 'permissions'> | null): boolean {
  return canChangeDataviews(claims) || claims?.subtype === 'sadmin';
}
