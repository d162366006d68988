import { eq } from 'drizzle-orm';
import { accounts, refreshTokens, sessionFamilies } from '../../db/schema.ts';
import { REFRESH_TOKEN_PREFIX, hashToken } from '../../lib/tokens.ts';
import { accountContext, type AuditContext } from '../audit/audit-context.ts';
import type { Deps } from '../deps.ts';
import { endSessions } from './end-sessions.ts';

/** The sign-out's audit entry: the account itself acts, from the request's address. */
const signOut = (from: AuditContext, account: { name: string; entity: string | null }) => ({
  ctx: accountContext(account.name, from),
  entry: { action: 'session.logout', entity: account.entity, target: { type: 'session', name: account.name } } as const,
});

/**
 * Ends the session of the presented token, whichever of the session's tokens it is: a refresh
 * token or a still valid access token. Unknown tokens are ignored: logout always succeeds.
 * A permanent token is no session; it ends only when it is revoked.
 */
export async function logout(deps: Deps, token: string, from: AuditContext): Promise<void> {
  if (token.startsWith(`${REFRESH_TOKEN_PREFIX}_`)) {
    const [row] = await deps.db
      .select({ family_id: refreshTokens.family_id, name: accounts.name, entity: accounts.entity })
      .from(refreshTokens)
      .innerJoin(sessionFamilies, eq(refreshTokens.family_id, sessionFamilies.id))
      .innerJoin(accounts, eq(sessionFamilies.account_id, accounts.id))
      .where(eq(refreshTokens.token_hash, hashToken(token)));
    if (row) await endSessions(deps, [row.family_id], signOut(from, row));
    return;
  }
  const claims = await deps.tokens.verify(token);
  if (claims?.fam && (await deps.sessions.ownerOf(claims.fam)) === claims.sub) {
    await endSessions(deps, [claims.fam], signOut(from, { name: claims.sub, entity: claims.entity }));
  }
}
