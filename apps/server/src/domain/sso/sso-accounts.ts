import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import type { Tx } from '../../db/client.ts';
import { accounts, ssoLinks } from '../../db/schema.ts';
import { hashPassword } from '../../lib/password.ts';
import { ssoRefused } from './oidc-client.ts';
import type { ResolvedProvider } from './sso-providers.ts';

type Account = typeof accounts.$inferSelect;

/** Only accounts of the provider's own entity (superadmins for the landlord's) are ever matched. */
const ofEntity = (p: ResolvedProvider) => (p.entity === null ? isNull(accounts.entity) : eq(accounts.entity, p.entity));

/** An api-name (letters, digits, underscore) for a created account, from the token's names. */
export function accountNameFor(claims: JWTPayload): string {
  const source = [
    claims.preferred_username,
    typeof claims.email === 'string' ? claims.email.split('@')[0] : '',
    claims.sub,
  ]
    .map((v) => (typeof v === 'string' ? v.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+|_+$/g, '') : ''))
    .find((v) => v.length > 0);
  return (source ?? 'sso_user').slice(0, 48);
}

/**
 * The account an ID token signs in as, within the provider's entity only: the one already linked
 * to this issuer and subject, else the one the configured claim matches (an e-mail the provider
 * has not marked unverified; a subject only through its link), else a new one when the provider
 * creates accounts. Answers the account and whether it was created.
 */
export async function accountForClaims(
  tx: Tx,
  p: ResolvedProvider,
  claims: JWTPayload & { sub: string },
): Promise<{ account: Account; created: boolean }> {
  const [linked] = await tx
    .select({ account: accounts })
    .from(ssoLinks)
    .innerJoin(accounts, eq(accounts.id, ssoLinks.account_id))
    .where(and(eq(ssoLinks.issuer, p.issuer), eq(ssoLinks.subject, claims.sub), ofEntity(p)))
    .limit(1);
  if (linked) return { account: linked.account, created: false };
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (p.claim === 'email') {
    if (!email) throw ssoRefused('The ID token carries no e-mail');
    if (claims.email_verified === false) throw ssoRefused('The provider has not verified this e-mail');
    const matches = await tx
      .select()
      .from(accounts)
      .where(and(ofEntity(p), sql`lower(${accounts.email}) = lower(${email})`))
      .limit(2);
    if (matches.length > 1) throw ssoRefused(`Several accounts have the e-mail ${email}`);
    if (matches[0]) {
      await link(tx, p, claims.sub, matches[0].id);
      return { account: matches[0], created: false };
    }
  }
  if (!p.auto_create || p.entity === null)
    throw ssoRefused(`No account matches ${p.claim} ${p.claim === 'email' ? email : claims.sub}`);
  const account = await create(tx, p, claims, email);
  await link(tx, p, claims.sub, account.id);
  return { account, created: true };
}

async function link(tx: Tx, p: ResolvedProvider, subject: string, accountId: string) {
  await tx
    .insert(ssoLinks)
    .values({ issuer: p.issuer, subject, account_id: accountId })
    .onConflictDoUpdate({ target: [ssoLinks.account_id, ssoLinks.issuer], set: { subject } });
}

/** A new account of the provider's default type and access, with a password nobody knows. */
async function create(tx: Tx, p: ResolvedProvider, claims: JWTPayload, email: string): Promise<Account> {
  const base = accountNameFor(claims);
  const password_hash = await hashPassword(randomBytes(32).toString('base64url'));
  for (let attempt = 0; attempt < 5; attempt++) {
    const name = attempt === 0 ? base : `${base}_${randomBytes(3).toString('hex')}`;
    const [row] = await tx
      .insert(accounts)
      .values({
        name,
        email,
        password_hash,
        subtype: p.default_subtype,
        entity: p.entity,
        access: p.default_access,
      })
      .onConflictDoNothing({ target: accounts.name })
      .returning();
    if (row) return row;
  }
  throw ssoRefused(`No free account name for ${base}`);
}
