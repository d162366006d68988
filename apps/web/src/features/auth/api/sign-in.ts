import type { LoginRequest, LoginResponse } from '@fleet/shared/schemas/session';
import type { TwoFactorChallenge } from '@fleet/shared/schemas/two-factor';
import { ApiError } from '@/lib/api/api-error.ts';
import { notifyError } from '@/lib/notify.ts';
import { LANDLORD_ENTITY, type SignedInSession } from '@/lib/session/session-store.ts';
import { session } from '@/lib/session/session.ts';
import { login } from './login.ts';
import { LOAD_ACCOUNT_ERROR, loadCurrentAccount } from './load-current-account.ts';

/**
 * Signs in with a password: stores the four values, loads the account, and resolves with the
 * signed-in session, or with the challenge of an account's second factor (the code step then
 * finishes it). Throws ApiError (login failures are not notified; the form shows them).
 */
export async function signIn(credentials: LoginRequest): Promise<SignedInSession | TwoFactorChallenge> {
  const answer = await login(credentials);
  return 'two_factor' in answer ? answer : startSession(answer);
}

/** Stores a sign-in's answer (a password's or single sign-on's) and loads the account. */
export async function startSession(answer: LoginResponse): Promise<SignedInSession> {
  const stored = session.signIn({
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token,
    username: answer.logged_in_as,
    // A superadmin belongs to no entity; the API may say so with null.
    entity: answer.entity ?? LANDLORD_ENTITY,
  });
  if (!stored) {
    notifyError(LOAD_ACCOUNT_ERROR);
    throw new ApiError({
      status: 0,
      userMessage: LOAD_ACCOUNT_ERROR,
      developerMessage: 'Unreadable access token',
      notified: true,
    });
  }
  await loadCurrentAccount();
  const current = session.getSnapshot();
  if (current.status !== 'signed-in') {
    throw new ApiError({ status: 401, userMessage: LOAD_ACCOUNT_ERROR, notified: true });
  }
  return current;
}
