import type { TwoFactorChallenge } from '@fleet/shared/schemas/two-factor';
import type { accounts } from '../../db/schema.ts';
import { totpChallenges } from '../../db/schema.ts';
import { hashToken, newOpaqueToken } from '../../lib/tokens.ts';
import type { Deps } from '../deps.ts';
import { confirmedFactor, isRequired } from './factor.ts';
import { twoFactorClock } from './totp.ts';

/** How long the second step may wait after the password. */
export const CHALLENGE_SECONDS = 5 * 60;

export const MESSAGES = {
  verify: 'Enter the code from your authenticator app, or one of your recovery codes.',
  enrol: 'Two-factor authentication is required for your account. Set up an authenticator app to finish signing in.',
  wrongCode: 'Wrong or already used code',
  expired: 'The sign-in has expired. Sign in again.',
} as const;

export type Account = typeof accounts.$inferSelect;

/**
 * After a right password: null when the account signs in without a second factor; otherwise a
 * challenge to `verify` a code, or to `enrol` first when its scope requires a second factor.
 */
export async function secondStep(deps: Deps, account: Account): Promise<TwoFactorChallenge | null> {
  const kind = (await confirmedFactor(deps.db, account.id))
    ? 'verify'
    : (await isRequired(deps.db, account))
      ? 'enrol'
      : null;
  if (!kind) return null;
  const challenge = newOpaqueToken('tfa');
  const expires_at = new Date(twoFactorClock.now().getTime() + CHALLENGE_SECONDS * 1000);
  await deps.db
    .insert(totpChallenges)
    .values({ token_hash: hashToken(challenge), account_id: account.id, kind, expires_at });
  return {
    two_factor: kind,
    challenge,
    expires_in: CHALLENGE_SECONDS,
    logged_in_as: account.name,
    message: MESSAGES[kind],
  };
}
