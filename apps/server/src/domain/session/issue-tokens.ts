import type { Subtype } from '@fleet/shared/constants';
import type { Executor } from '../../db/client.ts';
import { refreshTokens, sessionFamilies } from '../../db/schema.ts';
import { REFRESH_TOKEN_PREFIX, hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';
import { permissionsOf } from './token-permissions.ts';

export interface TokenAccount {
  id: string;
  name: string;
  subtype: Subtype;
  entity: string | null;
  access: string[];
}

/**
 * Issues an access token and a refresh token. Without `family` a new session family starts (a
 * sign-in); with it the refresh token continues that family and keeps its absolute expiry.
 */
export async function issueTokens(
  deps: Deps,
  db: Executor,
  account: TokenAccount,
  family?: { id: string; expiresAt: Date },
): Promise<{ access_token: string; refresh_token: string }> {
  const now = Date.now();
  let fam = family;
  if (!fam) {
    const expiresAt = new Date(now + deps.config.REFRESH_FAMILY_TTL_S * 1000);
    const [row] = await db
      .insert(sessionFamilies)
      .values({ account_id: account.id, expires_at: expiresAt })
      .returning({ id: sessionFamilies.id });
    fam = { id: row!.id, expiresAt };
  }
  const refresh_token = newOpaqueToken(REFRESH_TOKEN_PREFIX);
  await db.insert(refreshTokens).values({
    token_hash: hashToken(refresh_token),
    family_id: fam.id,
    expires_at: new Date(Math.min(now + deps.config.REFRESH_TOKEN_TTL_S * 1000, fam.expiresAt.getTime())),
  });
  const access_token = await deps.tokens.sign({
    sub: account.name,
    entity: account.entity,
    subtype: account.subtype,
    permissions: permissionsOf(account),
    fam: fam.id,
  });
  return { access_token, refresh_token };
}
