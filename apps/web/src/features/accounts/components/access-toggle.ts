import { ACCESS_VALUES, type AccessValue } from '@fleet/shared/constants';

/** The individual permissions of the Access Permissions section, in the spec's order. */
export const INDIVIDUAL_ACCESS = ACCESS_VALUES.filter((value) => value !== 'all');

/**
 * The access list after ticking or unticking `value` (core §2): All Access clears the
 * individual ones and leaves ['all']; ticking any individual one unticks All Access.
 */
export function toggleAccess(current: readonly AccessValue[], value: AccessValue, checked: boolean): AccessValue[] {
  if (value === 'all') return checked ? ['all'] : [];
  const individual = current.filter((v) => v !== 'all' && v !== value);
  if (!checked) return individual;
  // Keep the spec's order whatever order the boxes were ticked in.
  return INDIVIDUAL_ACCESS.filter((v) => v === value || individual.includes(v));
}
