import { isLoginResponse } from '@fleet/shared/guards';
import type { LoginRequest } from '@fleet/shared/schemas/session';
import { TwoFactorChallengeSchema, type LoginOrChallenge } from '@fleet/shared/schemas/two-factor';
import { expectShape } from '@/lib/api/expect-shape.ts';
import { api } from '@/lib/api/api.ts';

/** The login answer: the spec's four values, or a second factor's challenge (docs/two-factor.md). */
const isLoginAnswer = (v: unknown): v is LoginOrChallenge =>
  isLoginResponse(v) || TwoFactorChallengeSchema.safeParse(v).success;

/** POST /api/v1/login; no bearer, and no notices: the login form explains failures itself. */
export function login(body: LoginRequest): Promise<LoginOrChallenge> {
  return api.post('login', body, { auth: 'none', notify: false, parse: expectShape(isLoginAnswer, 'login') });
}
