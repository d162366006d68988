import { loginFieldErrors } from '@fleet/shared/guards';
import type { LoginRequest } from '@fleet/shared/schemas/session';

export interface LoginFieldErrors {
  username?: string;
  password?: string;
}

export type LoginValidation = { ok: true; request: LoginRequest } | { ok: false; errors: LoginFieldErrors };

/** Validates the login form with the shared rules (core §5), zod-free so the login page stays light. */
export function validateLogin(username: string, password: string): LoginValidation {
  const found = loginFieldErrors(username, password);
  if (found.name === undefined && found.password === undefined) {
    return { ok: true, request: { name: username.trim(), password } };
  }
  const errors: LoginFieldErrors = {};
  if (found.name !== undefined) errors.username = found.name;
  if (found.password !== undefined) errors.password = found.password;
  return { ok: false, errors };
}
