import { eq } from 'drizzle-orm';
import type { RefreshResponse } from '@fleet/shared/schemas/session';
import { accounts, refreshTokens, sessionFamilies } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountContext, type AuditContext } from '../audit/audit-context.ts';
import type { Deps } from '../deps.ts';
import { endSessions } from './end-sessions.ts';
import { issueTokens } from './issue-tokens.ts';

const sessionEnded = (why: string) => new HttpError(401, 'Your session has ended. Please sign in again.', why);

/**
 * Spends a refresh token and answers a new pair in the same family. A token that was already
 * spent is a sign of theft: the whole family is revoked and the call fails.
 */
export async function refreshSession(deps: Deps, refreshToken: string, from: AuditContext): Promise<RefreshResponse> {
  const outcome = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: refreshTokens, family: sessionFamilies })
      .from(refreshTokens)
      .innerJoin(sessionFamilies, eq(refreshTokens.family_id, sessionFamilies.id))
      .where(eq(refreshTokens.token_hash, hashToken(refreshToken)))
      .for('update');
    if (!row) return { ok: false, error: 'Unknown refresh token' } as const;
    const { token, family } = row;
    if (family.revoked_at) return { ok: false, error: 'Session revoked' } as const;
    if (token.spent_at) {
      const [owner] = await tx
        .select({ name: accounts.name, entity: accounts.entity })
        .from(accounts)
        .where(eq(accounts.id, family.account_id));
      return { ok: false, error: 'Refresh token reused; session revoked', revoke: family.id, owner } as const;
    }
    const now = Date.now();
    if (token.expires_at.getTime() <= now || family.expires_at.getTime() <= now) {
      return { ok: false, error: 'Refresh token expired' } as const;
    }
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, family.account_id)).limit(1);
    if (!account) return { ok: false, error: 'Account no longer exists' } as const;
    await tx.update(refreshTokens).set({ spent_at: new Date() }).where(eq(refreshTokens.token_hash, token.token_hash));
    const pair = await issueTokens(deps, tx, account, { id: family.id, expiresAt: family.expires_at });
    return { ok: true, pair } as const;
  });
  if (!outcome.ok) {
    if ('revoke' in outcome && outcome.revoke) {
      // The presenter is not trusted to be the owner: the server revokes, naming whose session it was.
      const owner = outcome.owner ?? { name: null, entity: null };
      await endSessions(deps, [outcome.revoke], {
        ctx: { ...accountContext(owner.name ?? '', from), actor: { kind: 'system', id: null, name: 'system' } },
        entry: {
          action: 'session.revoke',
          entity: owner.entity,
          target: { type: 'session', name: owner.name },
          reason: outcome.error,
        },
      });
    }
    throw sessionEnded(outcome.error);
  }
  return outcome.pair;
}
