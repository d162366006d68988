import { mayChange, mayManageAccount } from '@fleet/shared/access/rule';
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

/**
 * Account management at entity level (core §6; the shared access rule): an admin with all access,
 * or the superadmin inside an entity.
 */
export function canManageAccounts(viewer: Viewer): boolean {
  return mayChange(viewer, 'accounts');
}

/**
 * Entity account list (core §2, §6): edit and delete only on rows the viewer manages (an entity
 * admin never on admin rows; the superadmin on every row), and nobody deletes their own row.
 */
export function entityRowActions(row: { name: string; subtype: Subtype }, viewer: Viewer): RowActions {
  if (!mayManageAccount(viewer, row)) return { edit: false, remove: false };
  return { edit: true, remove: row.name !== viewer.name };
}

/** Landlord account list: every row can be edited; every row but one's own deleted. */
export function landlordRowActions(row: { name: string }, viewer: Pick<Viewer, 'name'>): RowActions {
  return { edit: true, remove: row.name !== viewer.name };
}
