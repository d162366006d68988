import type { Subtype } from '@fleet/shared/constants';

/** The permissions an access token carries: a superadmin has all access. */
export function permissionsOf(account: { subtype: Subtype; access: string[] }): string[] {
  return account.subtype === 'sadmin' ? ['all'] : account.access;
}
