import { tenantPath } from '@/lib/api/api-client.ts';

/** Whose tokens: the account's name and entity (null for a superadmin). */
export interface TokenOwner {
  name: string;
  entity: string | null;
}

/** Who asks: the landlord (plain paths) or an entity user (their active entity's prefix). */
export type TokenViewer = { landlord: true } | { landlord: false; entity: string };

export interface TokenPaths {
  generate: string;
  list: string;
  revoke(tokenHash: string): string;
}

/**
 * The permanent-token calls of core §7 for `owner`. Entity users use the tenant prefix; the
 * landlord uses the plain account paths, except that a token for an entity's account is
 * generated through `tenant/{entity}/{account}/permanent-token`.
 */
export function tokenPaths(owner: TokenOwner, viewer: TokenViewer): TokenPaths {
  const name = encodeURIComponent(owner.name);
  const account = viewer.landlord ? `account/${name}` : tenantPath(viewer.entity, `account/${name}`);
  const generate =
    viewer.landlord && owner.entity !== null
      ? tenantPath(owner.entity, `${name}/permanent-token`)
      : `${account}/permanent-token`;
  return {
    generate,
    list: `${account}/tokens`,
    revoke: (tokenHash) => `${account}/token/${encodeURIComponent(tokenHash)}`,
  };
}
