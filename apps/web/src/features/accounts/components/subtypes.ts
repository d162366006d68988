import type { Subtype } from '@fleet/shared/constants';

/** A subtype as lists show it: sadmin reads 'superadmin' (core §1). */
export function subtypeText(subtype: Subtype): string {
  return subtype === 'sadmin' ? 'superadmin' : subtype;
}

const LABELS: Record<Subtype, string> = {
  sadmin: 'Superadmin',
  admin: 'Admin',
  developer: 'Developer',
  operator: 'Operator',
  infra: 'Infra',
};

export interface SubtypeOption {
  value: Subtype;
  label: string;
}

const options = (subtypes: readonly Subtype[]): SubtypeOption[] =>
  subtypes.map((value) => ({ value, label: LABELS[value] }));

/** Landlord create: Superadmin is offered here only (core §6); admin is the default. */
export const LANDLORD_CREATE_TYPES = options(['sadmin', 'admin', 'developer', 'operator', 'infra']);
/** Landlord edit of an entity account: its entity is fixed, so it stays an entity subtype. */
export const LANDLORD_EDIT_TYPES = options(['admin', 'developer', 'operator', 'infra']);
/** Entity level: admin is not offered (core §2); developer is the default. */
export const ENTITY_TYPES = options(['developer', 'operator', 'infra']);

/** `choices` plus the current subtype when it is missing, so an edit never shows a blank type. */
export function withCurrentType(choices: SubtypeOption[], current: Subtype): SubtypeOption[] {
  return choices.some((o) => o.value === current) ? choices : [...options([current]), ...choices];
}
