import { and, eq, isNull } from 'drizzle-orm';
import type { RefreshResponse } from '@fleet/shared/schemas/session';
import { accounts, refreshTokens } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';
import { issueTokens } from './issue-tokens.ts';

const sessionEnded = (why: string) => new HttpError(401, 'Your session has ended. Please sign in again.', why);

/**
 * Spends a refresh token and answers a new pair in the same family. A token that was already
 * spent or revoked is a sign of theft: the whole family is revoked and the call fails.
 */
export async function refreshSession(deps: Deps, refreshToken: string): Promise<RefreshResponse> {
  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.token_hash, hashToken(refreshToken)))
      .for('update');
    if (!row) return { ok: false, error: 'Unknown refresh token' } as const;
    if (row.spent_at || row.revoked_at) {
      await tx
        .update(refreshTokens)
        .set({ revoked_at: new Date() })
        .where(and(eq(refreshTokens.family_id, row.family_id), isNull(refreshTokens.revoked_at)));
      return {
        ok: false,
        error: row.revoked_at ? 'Refresh token revoked' : 'Refresh token reused; session family revoked',
      } as const;
    }
    const now = Date.now();
    if (row.expires_at.getTime() <= now || row.family_expires_at.getTime() <= now) {
      return { ok: false, error: 'Refresh token expired' } as const;
    }
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, row.account_id)).limit(1);
    if (!account) return { ok: false, error: 'Account no longer exists' } as const;
    await tx.update(refreshTokens).set({ spent_at: new Date() }).where(eq(refreshTokens.token_hash, row.token_hash));
    const pair = await issueTokens(deps, tx, account, { id: row.family_id, expiresAt: row.family_expires_at });
    return { ok: true, pair } as const;
  });
  if (!outcome.ok) throw sessionEnded(outcome.error);
  return outcome.pair;
}
