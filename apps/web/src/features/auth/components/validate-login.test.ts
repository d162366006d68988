import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@fleet/shared/validation';
import { ApiError } from '@/lib/api/api-error.ts';
import { WRONG_PASSWORD, loginErrorMessage } from './login-error-message.ts';
import { validateLogin } from './validate-login.ts';

describe('login validation (core §5)', () => {
  it('requires a username and a password of at least 6 characters', () => {
    expect(validateLogin('', '')).toEqual({
      ok: false,
      errors: { username: MESSAGES.required, password: MESSAGES.required },
    });
    expect(validateLogin('admin', '12345')).toEqual({ ok: false, errors: { password: MESSAGES.passwordMin } });
    expect(validateLogin('  admin ', '123456')).toEqual({ ok: true, request: { name: 'admin', password: '123456' } });
  });
});

describe('login failure texts (core §8)', () => {
  it('says Wrong password for 401 and 403, the server message otherwise', () => {
    expect(loginErrorMessage(new ApiError({ status: 401, userMessage: 'x' }))).toBe(WRONG_PASSWORD);
    expect(loginErrorMessage(new ApiError({ status: 403, userMessage: 'x' }))).toBe(WRONG_PASSWORD);
    expect(loginErrorMessage(new ApiError({ status: 429, userMessage: 'Too many attempts' }))).toBe(
      'Too many attempts',
    );
    expect(loginErrorMessage(new ApiError({ status: 0, userMessage: 'Network error' }))).toBe('Network error');
    expect(loginErrorMessage(new ApiError({ status: 500, userMessage: 'x', notified: true }))).toBeNull();
  });
});
