import { eq } from 'drizzle-orm';
import { refreshTokens } from '../../db/schema.ts';
import { REFRESH_TOKEN_PREFIX, hashToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';
import { endSessions } from './end-sessions.ts';

/**
 * Ends the session of the presented token, whichever of the session's tokens it is: a refresh
 * token or a still valid access token. Unknown tokens are ignored: logout always succeeds.
 * A permanent token is no session; it ends only when it is revoked.
 */
export async function logout(deps: Deps, token: string): Promise<void> {
  if (token.startsWith(`${REFRESH_TOKEN_PREFIX}_`)) {
    const [row] = await deps.db
      .select({ family_id: refreshTokens.family_id })
      .from(refreshTokens)
      .where(eq(refreshTokens.token_hash, hashToken(token)));
    if (row) await endSessions(deps, [row.family_id]);
    return;
  }
  const claims = await deps.tokens.verify(token);
  if (claims?.fam && (await deps.sessions.ownerOf(claims.fam)) === claims.sub) await endSessions(deps, [claims.fam]);
}
