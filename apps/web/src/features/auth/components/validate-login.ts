import { LoginRequestSchema, type LoginRequest } from '@fleet/shared/schemas/session';

export interface LoginFieldErrors {
  username?: string;
  password?: string;
}

export type LoginValidation = { ok: true; request: LoginRequest } | { ok: false; errors: LoginFieldErrors };

/** Validates the login form with the shared schema (core §5); the first message per field wins. */
export function validateLogin(username: string, password: string): LoginValidation {
  const parsed = LoginRequestSchema.safeParse({ name: username, password });
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: LoginFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'name' ? 'username' : issue.path[0] === 'password' ? 'password' : null;
    if (field !== null) errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
