import { api } from './api.ts';

/**
 * Where account calls go (core §7): the landlord uses the plain `account` path, everyone else
 * `tenant/{entity}/account` for their active entity.
 */
export function accountsPath(landlord: boolean): string {
  return landlord ? 'account' : api.tenant('account');
}

/** One account's path under the same rule, the name URL-encoded. */
export function accountPath(landlord: boolean, name: string): string {
  return `${accountsPath(landlord)}/${encodeURIComponent(name)}`;
}
