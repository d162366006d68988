import { eq } from 'drizzle-orm';
import { refreshTokens } from '../../db/schema.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';
import { endSessions } from './end-sessions.ts';

/** Ends the session of the presented refresh token. Unknown tokens are ignored: logout always succeeds. */
export async function logout(deps: Deps, refreshToken: string): Promise<void> {
  const [row] = await deps.db
    .select({ family_id: refreshTokens.family_id })
    .from(refreshTokens)
    .where(eq(refreshTokens.token_hash, hashToken(refreshToken)));
  if (row) await endSessions(deps, [row.family_id]);
}
