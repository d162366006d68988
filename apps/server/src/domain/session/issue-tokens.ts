import { randomUUID } from 'node:crypto';
import type { Subtype } from '@fleet/shared/constants';
import { refreshTokens } from '../../db/schema.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';
import type { Executor } from '../../db/client.ts';

export interface TokenAccount {
  id: string;
  name: string;
  subtype: Subtype;
  entity: string | null;
  access: string[];
}

/** The permissions an access token carries: a superadmin has all access. */
export function permissionsOf(account: TokenAccount): string[] {
  return account.subtype === 'sadmin' ? ['all'] : account.access;
}

/**
 * Issues an access token and a refresh token. Without `family` a new family starts (a sign-in);
 * with it the refresh token continues that family and keeps its absolute expiry.
 */
export async function issueTokens(
  deps: Deps,
  db: Executor,
  account: TokenAccount,
  family?: { id: string; expiresAt: Date },
): Promise<{ access_token: string; refresh_token: string }> {
  const now = Date.now();
  const familyExpiresAt = family?.expiresAt ?? new Date(now + deps.config.REFRESH_FAMILY_TTL_S * 1000);
  const expiresAt = new Date(Math.min(now + deps.config.REFRESH_TOKEN_TTL_S * 1000, familyExpiresAt.getTime()));
  const refresh_token = newOpaqueToken('rt');
  await db.insert(refreshTokens).values({
    token_hash: hashToken(refresh_token),
    family_id: family?.id ?? randomUUID(),
    account_id: account.id,
    expires_at: expiresAt,
    family_expires_at: familyExpiresAt,
  });
  const access_token = await deps.tokens.sign({
    sub: account.name,
    entity: account.entity,
    subtype: account.subtype,
    permissions: permissionsOf(account),
  });
  return { access_token, refresh_token };
}
