import type { Subtype } from '@fleet/shared/constants';

const WRITERS: readonly Subtype[] = ['sadmin', 'admin', 'developer'];

/** Files and firmware are uploaded and deleted by superadmins, admins and developers; every role sees the lists. */
export function canChangeFiles(subtype: Subtype | undefined): boolean {
  return subtype !== undefined && WRITERS.includes(subtype);
}
