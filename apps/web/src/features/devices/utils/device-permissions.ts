import type { Subtype } from '@fleet/shared/constants';

const WRITERS: readonly Subtype[] = ['sadmin', 'admin', 'developer'];

/**
 * Whether the viewer may change the device registry (add, edit, delete, new credentials):
 * superadmins, admins and developers; operators and infra only read it (the server answers 403).
 */
export function canChangeDevices(subtype: Subtype | undefined): boolean {
  return subtype !== undefined && WRITERS.includes(subtype);
}
