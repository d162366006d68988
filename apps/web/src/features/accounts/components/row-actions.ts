import type { Subtype } from '@fleet/shared/constants';

/** Who is looking at a list: from the session's claims. */
export interface Viewer {
  name: string;
  subtype: Subtype;
  permissions: readonly string[];
}

export interface RowActions {
  edit: boolean;
  remove: boolean;
}

/** Account management at entity level needs the admin subtype and all access (core §6). */
export function canManageAccounts(viewer: Viewer): boolean {
  return viewer.subtype === 'admin' && viewer.permissions.includes('all');
}

/**
 * Entity account list (core §2, §6): edit and delete only for a manager, never on admin rows,
 * and nobody deletes their own row.
 */
export function entityRowActions(row: { name: string; subtype: Subtype }, viewer: Viewer): RowActions {
  if (!canManageAccounts(viewer) || row.subtype === 'admin') return { edit: false, remove: false };
  return { edit: true, remove: row.name !== viewer.name };
}

/** Landlord account list: every row can be edited; every row but one's own deleted. */
export function landlordRowActions(row: { name: string }, viewer: Pick<Viewer, 'name'>): RowActions {
  return { edit: true, remove: row.name !== viewer.name };
}
