import { and, desc, eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { GeneratedToken, PermanentToken } from '@fleet/shared/schemas/token';
import { permanentTokens } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { PERMANENT_TOKEN_PREFIX, hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { forgetTokens } from '../account/account-credentials.ts';
import { assertMayManageTokens } from '../account/account-policy.ts';
import { findAccountInScope, type Scope } from '../account/account-scope.ts';
import type { Deps } from '../deps.ts';

type TokenRow = typeof permanentTokens.$inferSelect;

const present = (row: TokenRow): PermanentToken => ({
  token_hash: row.token_hash,
  created_at: row.created_at.toISOString(),
  last_used: row.last_used?.toISOString() ?? null,
  description: row.description,
});

async function target(deps: Deps, actor: AccessClaims, scope: Scope, account: string) {
  const row = await findAccountInScope(deps.db, account, scope);
  assertMayManageTokens(actor, row);
  return row;
}

/** Generates a permanent token (256 random bits). Its value is in this answer only; the database keeps a hash. */
export async function generateToken(
  deps: Deps,
  actor: AccessClaims,
  scope: Scope,
  account: string,
  description: string,
): Promise<GeneratedToken> {
  const owner = await target(deps, actor, scope, account);
  const token = newOpaqueToken(PERMANENT_TOKEN_PREFIX.slice(0, -1));
  const [row] = await deps.db
    .insert(permanentTokens)
    .values({ token_hash: hashToken(token), account_id: owner.id, description })
    .returning();
  return { token, ...present(row!) };
}

/** An account's permanent tokens, newest first, without their values. */
export async function listTokens(deps: Deps, actor: AccessClaims, scope: Scope, account: string) {
  const owner = await target(deps, actor, scope, account);
  const rows = await deps.db
    .select()
    .from(permanentTokens)
    .where(eq(permanentTokens.account_id, owner.id))
    .orderBy(desc(permanentTokens.created_at));
  return { tokens: rows.map(present) };
}

/** Revokes one of an account's permanent tokens; it stops working at once on every instance. */
export async function revokeToken(deps: Deps, actor: AccessClaims, scope: Scope, account: string, tokenHash: string) {
  const owner = await target(deps, actor, scope, account);
  const deleted = await deps.db
    .delete(permanentTokens)
    .where(and(eq(permanentTokens.token_hash, tokenHash), eq(permanentTokens.account_id, owner.id)))
    .returning({ hash: permanentTokens.token_hash });
  if (deleted.length === 0) throw notFound('Token');
  forgetTokens(deps, [tokenHash]);
}
