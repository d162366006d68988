import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { LoginResponse } from '@fleet/shared/schemas/session';
import { accounts, ssoFlows, ssoHandoffs } from '../../db/schema.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountContext, type AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { issueTokens } from '../session/issue-tokens.ts';
import { LANDLORD_ENTITY } from '../session/login.ts';
import { authorizationUrl, discover, exchangeCode, newFlowSecrets, verifyIdToken } from './oidc-client.ts';
import { accountForClaims } from './sso-accounts.ts';
import { findProvider, type ResolvedProvider } from './sso-providers.ts';

/** A sign-in must come back from the provider within this long. */
const FLOW_TTL_MS = 10 * 60_000;
/** The console exchanges the hand-off code within this long, once. */
const HANDOFF_TTL_MS = 60_000;

const expired = (why: string) =>
  new HttpError(400, 'This sign-in has expired or was already used. Please sign in again.', why);

/** Where the console goes after signing in: a path of this site only. */
export const safeReturnPath = (v: string | undefined) => (v && /^\/(?!\/)/.test(v) && !v.includes('\\') ? v : null);

/** Starts a sign-in at a provider: stores state, nonce and PKCE verifier, answers the authorization URL. */
export async function startSso(
  deps: Deps,
  providerId: string,
  opts: { redirectUri: string; returnTo?: string },
  now = new Date(),
): Promise<string> {
  const provider = await findProvider(deps, providerId);
  if (!provider) throw notFound('Single sign-on provider');
  const { doc } = await discover(provider.issuer);
  const secrets = newFlowSecrets();
  await deps.db.delete(ssoFlows).where(lt(ssoFlows.expires_at, now));
  await deps.db.insert(ssoFlows).values({
    state: secrets.state,
    provider: provider.id,
    nonce: secrets.nonce,
    code_verifier: secrets.codeVerifier,
    redirect_uri: opts.redirectUri,
    return_to: safeReturnPath(opts.returnTo),
    expires_at: new Date(now.getTime() + FLOW_TTL_MS),
  });
  return authorizationUrl(doc, provider, { ...secrets, redirectUri: opts.redirectUri });
}

export interface CallbackInput {
  state?: string;
  code?: string;
  error?: string;
}

/**
 * Finishes a sign-in on the provider's redirect: spends the flow (once, on any instance), exchanges
 * the code, verifies the ID token, finds (or creates) the account in the provider's entity, and
 * answers a one-time code for the console. Success and refusal are audited as `session.sso`.
 */
export async function finishSso(
  deps: Deps,
  input: CallbackInput,
  from: AuditContext,
  now = new Date(),
): Promise<{ code: string; returnTo: string | null; provider: string }> {
  if (!input.state) throw expired('No state');
  const [flow] = await deps.db
    .delete(ssoFlows)
    .where(and(eq(ssoFlows.state, input.state), gt(ssoFlows.expires_at, now)))
    .returning();
  if (!flow) throw expired('Unknown, spent or expired state');
  const provider = await findProvider(deps, flow.provider);
  if (!provider) throw expired('The provider was removed during the sign-in');
  const failed = (name: string | null, err: HttpError) =>
    recordFailure(
      deps.db,
      accountContext(name ?? '', from),
      {
        action: 'session.sso',
        entity: provider.entity,
        target: { type: 'account', name },
        details: detailsOf(provider),
      },
      err,
    );
  let claims;
  try {
    if (input.error || !input.code)
      throw new HttpError(401, 'Single sign-on failed', `The provider answered ${input.error ?? 'no code'}`);
    const { doc, keys } = await discover(provider.issuer);
    const idToken = await exchangeCode(doc, provider, {
      code: input.code,
      codeVerifier: flow.code_verifier,
      redirectUri: flow.redirect_uri,
    });
    claims = await verifyIdToken(idToken, {
      issuer: provider.issuer,
      clientId: provider.client_id,
      nonce: flow.nonce,
      keys,
      now,
    });
  } catch (err) {
    if (err instanceof HttpError) await failed(null, err);
    throw err;
  }
  const code = randomBytes(32).toString('base64url');
  const who = typeof claims.email === 'string' ? claims.email : claims.sub;
  const ctx = accountContext(who, from);
  await audited(
    deps.db,
    ctx,
    {
      action: 'session.sso',
      entity: provider.entity,
      target: { type: 'account', name: who },
      complete: (r: { name: string; created: boolean }) => ({
        target: { type: 'account', name: r.name },
        details: { ...detailsOf(provider), created: r.created },
      }),
    },
    async (tx) => {
      const { account, created } = await accountForClaims(tx, provider, claims);
      ctx.actor = { kind: 'account', id: account.name, name: account.name };
      const expires_at = new Date(now.getTime() + HANDOFF_TTL_MS);
      // Codes never exchanged (a closed tab) go with the next sign-in.
      await tx.delete(ssoHandoffs).where(lt(ssoHandoffs.expires_at, now));
      await tx.insert(ssoHandoffs).values({ code_hash: hashToken(code), account_id: account.id, expires_at });
      return { name: account.name, created };
    },
  );
  return { code, returnTo: flow.return_to, provider: provider.id };
}

const detailsOf = (p: ResolvedProvider) => ({ provider: p.label, issuer: p.issuer });

/** Exchanges the callback's one-time code for the same pair a password sign-in answers. */
export async function exchangeSsoCode(deps: Deps, code: string, now = new Date()): Promise<LoginResponse> {
  return deps.db.transaction(async (tx) => {
    const [handoff] = await tx
      .delete(ssoHandoffs)
      .where(and(eq(ssoHandoffs.code_hash, hashToken(code)), gt(ssoHandoffs.expires_at, now)))
      .returning();
    if (!handoff) throw expired('Unknown, spent or expired hand-off code');
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, handoff.account_id)).limit(1);
    if (!account) throw expired('The account is gone');
    const tokens = await issueTokens(deps, tx, account);
    return { ...tokens, logged_in_as: account.name, entity: account.entity ?? LANDLORD_ENTITY };
  });
}
