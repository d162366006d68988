import { isLoginResponse } from '@fleet/shared/guards';
import type { LoginRequest, LoginResponse } from '@fleet/shared/schemas/session';
import { expectShape } from '@/lib/api/expect-shape.ts';
import { api } from '@/lib/api/api.ts';

/** POST /api/v1/login; no bearer, and no notices: the login form explains failures itself. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return api.post('login', body, { auth: 'none', notify: false, parse: expectShape(isLoginResponse, 'login') });
}
