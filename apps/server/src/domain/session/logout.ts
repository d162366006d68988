import { and, eq, isNull } from 'drizzle-orm';
import { refreshTokens } from '../../db/schema.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';

/** Revokes the family of the presented refresh token. Unknown tokens are ignored: logout always succeeds. */
export async function logout(deps: Deps, refreshToken: string): Promise<void> {
  const [row] = await deps.db
    .select({ family_id: refreshTokens.family_id })
    .from(refreshTokens)
    .where(eq(refreshTokens.token_hash, hashToken(refreshToken)));
  if (!row) return;
  await deps.db
    .update(refreshTokens)
    .set({ revoked_at: new Date() })
    .where(and(eq(refreshTokens.family_id, row.family_id), isNull(refreshTokens.revoked_at)));
}
