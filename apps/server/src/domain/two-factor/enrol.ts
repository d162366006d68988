import { eq } from 'drizzle-orm';
import type { TwoFactorEnrolment, TwoFactorStatus } from '@fleet/shared/schemas/two-factor';
import type { Executor } from '../../db/client.ts';
import { accountTotp, accounts, totpRecoveryCodes } from '../../db/schema.ts';
import { HttpError, unauthorized } from '../../lib/http-error.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { acceptCode, confirmedFactor, isRequired, recoveryCodesLeft, type FactorAccount } from './factor.ts';
import { newRecoveryCodes, newSecret, otpauthUri } from './totp.ts';

const alreadyEnrolled = () =>
  new HttpError(409, 'Two-factor authentication is already set up for this account', 'Already enrolled');

/** The caller's own second factor: set up or not, required or not, recovery codes left. */
export async function twoFactorStatus(db: Executor, account: FactorAccount): Promise<TwoFactorStatus> {
  const factor = await confirmedFactor(db, account.id);
  return {
    enrolled: Boolean(factor),
    required: await isRequired(db, account),
    recovery_codes_left: factor ? await recoveryCodesLeft(db, account.id) : 0,
  };
}

/** Starts (or starts again) an enrolment: a new secret, returned this once, waiting for its first code. */
export async function startEnrolment(db: Executor, account: FactorAccount): Promise<TwoFactorEnrolment> {
  if (await confirmedFactor(db, account.id)) throw alreadyEnrolled();
  const secret = newSecret();
  await db
    .insert(accountTotp)
    .values({ account_id: account.id, secret })
    .onConflictDoUpdate({ target: accountTotp.account_id, set: { secret, last_step: null, created_at: new Date() } });
  return { secret, otpauth_uri: otpauthUri(account.name, secret) };
}

/**
 * Confirms the enrolment with a first code: the factor is on from now, and the ten recovery codes
 * are answered this once (only their hashes are kept). False when the code does not match.
 */
export async function confirmEnrolment(
  deps: Deps,
  ctx: AuditContext,
  account: FactorAccount,
  code: string,
  at: Date,
): Promise<string[] | null> {
  const [pending] = await deps.db.select().from(accountTotp).where(eq(accountTotp.account_id, account.id)).limit(1);
  if (!pending) throw new HttpError(409, 'Start setting up two-factor authentication first', 'No enrolment started');
  if (pending.confirmed_at) throw alreadyEnrolled();
  const codes = newRecoveryCodes();
  const target = { type: 'account', name: account.name } as const;
  const entry = { action: 'account.two_factor_enrol', entity: account.entity, target } as const;
  // A wrong code records nothing (the sign-in step's throttle counts it).
  return audited(deps.db, ctx, { ...entry, complete: (r) => (r ? {} : null) }, async (tx) => {
    if (!(await acceptCode(tx, account.id, pending.secret, code, at, true))) return null;
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.account_id, account.id));
    await tx.insert(totpRecoveryCodes).values(codes.map((c) => ({ account_id: account.id, code_hash: hashToken(c) })));
    return codes;
  });
}

/** The signed-in person's account by name; 401 when it is gone. */
export async function accountNamed(db: Executor, name: string): Promise<FactorAccount> {
  const [row] = await db.select().from(accounts).where(eq(accounts.name, name)).limit(1);
  if (!row) throw unauthorized();
  return row;
}
