import { LoginResponseSchema, type LoginResponse } from '@fleet/shared/schemas/session';
import {
  LoginWithRecoveryCodesSchema,
  TwoFactorEnrolmentSchema,
  type TwoFactorEnrolment,
} from '@fleet/shared/schemas/two-factor';
import { api } from '@/lib/api/api.ts';

// The sign-in's second step (docs/two-factor.md): public calls, failures shown by the step itself.
const step = { auth: 'none', notify: false } as const;

/** POST login/two-factor: a code or a recovery code finishes the sign-in. */
export function finishSignIn(challenge: string, code: string): Promise<LoginResponse> {
  return api.post('login/two-factor', { challenge, code }, { ...step, parse: (d) => LoginResponseSchema.parse(d) });
}

/** POST login/two-factor/enrol: an admin who must enrol gets the secret during the sign-in. */
export function startSignInEnrolment(challenge: string): Promise<TwoFactorEnrolment> {
  return api.post(
    'login/two-factor/enrol',
    { challenge },
    { ...step, parse: (d) => TwoFactorEnrolmentSchema.parse(d) },
  );
}

/** POST login/two-factor/confirm: the first code confirms the enrolment and signs in. */
export function confirmSignInEnrolment(challenge: string, code: string) {
  return api.post(
    'login/two-factor/confirm',
    { challenge, code },
    { ...step, parse: (d) => LoginWithRecoveryCodesSchema.parse(d) },
  );
}
