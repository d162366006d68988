import { and, desc, eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { GeneratedToken, PermanentToken } from '@fleet/shared/schemas/token';
import { permanentTokens } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { PERMANENT_TOKEN_PREFIX, hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import { forgetTokens } from '../account/account-credentials.ts';
import { assertMayManageTokens } from '../account/account-policy.ts';
import { findAccountInScope, type Scope } from '../account/account-scope.ts';
import { TOKEN_HASH_PREFIX } from '@fleet/shared/audit-actions';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
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
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  account: string,
  description: string,
): Promise<GeneratedToken> {
  const owner = await target(deps, actor, scope, account);
  const token = newOpaqueToken(PERMANENT_TOKEN_PREFIX.slice(0, -1));
  const hash = hashToken(token);
  // A token is named by its hash prefix and description; its value is never recorded.
  const entry = {
    action: 'token.create',
    entity: owner.entity,
    target: { type: 'token', name: hash.slice(0, TOKEN_HASH_PREFIX) },
    after: { account: owner.name, description },
  } as const;
  const [row] = await audited(deps.db, ctx, entry, (tx) =>
    tx.insert(permanentTokens).values({ token_hash: hash, account_id: owner.id, description }).returning(),
  );
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
export async function revokeToken(
  deps: Deps,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  account: string,
  tokenHash: string,
) {
  const owner = await target(deps, actor, scope, account);
  const entry = {
    action: 'token.delete',
    entity: owner.entity,
    target: { type: 'token', name: tokenHash.slice(0, TOKEN_HASH_PREFIX) },
  } as const;
  const complete = (rows: Array<{ description: string }>) =>
    rows[0] ? { before: { account: owner.name, description: rows[0].description } } : null;
  const deleted = await audited(deps.db, ctx, { ...entry, complete }, (tx) =>
    tx
      .delete(permanentTokens)
      .where(and(eq(permanentTokens.token_hash, tokenHash), eq(permanentTokens.account_id, owner.id)))
      .returning({ description: permanentTokens.description }),
  );
  if (deleted.length === 0) throw notFound('Token');
  forgetTokens(deps, [tokenHash]);
}
