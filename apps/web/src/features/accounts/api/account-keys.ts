/**
 * Query keys of the account cache, by the path they were read from (plain for the landlord,
 * tenant-prefixed for everyone else). Invalidate `accountKeys.all` after any change.
 */
export const accountKeys = {
  all: ['accounts'] as const,
  list: (path: string) => [...accountKeys.all, 'list', path] as const,
  detail: (path: string) => [...accountKeys.all, 'detail', path] as const,
};
