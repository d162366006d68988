import { and, eq, gt } from 'drizzle-orm';
import type { LoginResponse } from '@fleet/shared/schemas/session';
import type { TwoFactorEnrolment } from '@fleet/shared/schemas/two-factor';
import { accounts, totpChallenges } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountContext, type AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure as recordAuditFailure } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { issueTokens } from '../session/issue-tokens.ts';
import { LANDLORD_ENTITY } from '../session/login.ts';
import { assertNotThrottled, clearFailures, recordFailure, throttleLimits } from '../session/throttle.ts';
import { confirmEnrolment, startEnrolment } from './enrol.ts';
import { acceptCode, confirmedFactor, spendRecoveryCode } from './factor.ts';
import { MESSAGES, type Account } from './second-step.ts';
import { twoFactorClock } from './totp.ts';

/** The account a live challenge of `kind` stands for, or 401 (unknown, expired, or of the other kind). */
async function challengedAccount(deps: Deps, challenge: string, kind: 'verify' | 'enrol'): Promise<Account> {
  const [row] = await deps.db
    .select({ account: accounts })
    .from(totpChallenges)
    .innerJoin(accounts, eq(accounts.id, totpChallenges.account_id))
    .where(
      and(
        eq(totpChallenges.token_hash, hashToken(challenge)),
        eq(totpChallenges.kind, kind),
        gt(totpChallenges.expires_at, twoFactorClock.now()),
      ),
    )
    .limit(1);
  if (!row) throw new HttpError(401, MESSAGES.expired, 'Unknown or expired two-factor challenge');
  return row.account;
}

/**
 * Runs a code check under the password's throttle (the same counters: a wrong code counts as a
 * wrong password), then ends the challenge and starts the session.
 */
async function finish<T extends object>(
  deps: Deps,
  from: AuditContext,
  account: Account,
  challenge: string,
  check: () => Promise<T | null>,
): Promise<LoginResponse & T> {
  const ctx = accountContext(account.name, from);
  const entry = {
    action: 'session.login',
    entity: account.entity,
    target: { type: 'account', name: account.name },
  } as const;
  const limits = throttleLimits(account.name, from.address ?? '');
  const now = twoFactorClock.now();
  try {
    await assertNotThrottled(deps.db, limits, now);
  } catch (err) {
    if (err instanceof HttpError) await recordAuditFailure(deps.db, ctx, entry, err);
    throw err;
  }
  const extra = await check();
  if (!extra) {
    for (const limit of limits) await recordFailure(deps.db, limit, now);
    const err = new HttpError(401, MESSAGES.wrongCode, 'Wrong second factor');
    await recordAuditFailure(deps.db, ctx, entry, err);
    throw err;
  }
  await clearFailures(deps.db, limits[0]);
  const tokens = await audited(deps.db, ctx, entry, async (tx) => {
    const gone = await tx
      .delete(totpChallenges)
      .where(eq(totpChallenges.token_hash, hashToken(challenge)))
      .returning({ t: totpChallenges.token_hash });
    if (gone.length === 0) throw new HttpError(401, MESSAGES.expired, 'Two-factor challenge already used');
    return issueTokens(deps, tx, account);
  });
  return { ...extra, ...tokens, logged_in_as: account.name, entity: account.entity ?? LANDLORD_ENTITY };
}

/** Finishes a `verify` challenge with an authenticator code or a recovery code. */
export async function finishWithCode(
  deps: Deps,
  input: { challenge: string; code: string },
  from: AuditContext,
): Promise<LoginResponse> {
  const account = await challengedAccount(deps, input.challenge, 'verify');
  return finish(deps, from, account, input.challenge, async () => {
    const now = twoFactorClock.now();
    const factor = await confirmedFactor(deps.db, account.id);
    if (!factor) return null;
    const ok =
      (await acceptCode(deps.db, account.id, factor.secret, input.code, now)) ||
      (await spendRecoveryCode(deps.db, account.id, input.code, now));
    return ok ? {} : null;
  });
}

/** An `enrol` challenge's first half: the secret and URI to put into the authenticator app. */
export async function enrolDuringSignIn(deps: Deps, challenge: string): Promise<TwoFactorEnrolment> {
  const account = await challengedAccount(deps, challenge, 'enrol');
  return startEnrolment(deps.db, account);
}

/** An `enrol` challenge's second half: the first code confirms it and signs in; the recovery codes come once. */
export async function confirmDuringSignIn(
  deps: Deps,
  input: { challenge: string; code: string },
  from: AuditContext,
): Promise<LoginResponse & { recovery_codes: string[] }> {
  const account = await challengedAccount(deps, input.challenge, 'enrol');
  const ctx = accountContext(account.name, from);
  return finish(deps, from, account, input.challenge, async () => {
    const codes = await confirmEnrolment(deps, ctx, account, input.code, twoFactorClock.now());
    return codes ? { recovery_codes: codes } : null;
  });
}
