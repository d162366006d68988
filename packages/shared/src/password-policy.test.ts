import { describe, expect, it } from 'vitest';
import { MESSAGES, LoginRequestSchema, newPassword } from './validation.ts';
import { PASSWORD_POLICY_MESSAGES, passwordWeakness } from './password-policy.ts';

const messageOf = (value: string) =>
  newPassword()
    .safeParse(value)
    .error?.issues.map((i) => i.message);

describe('the password policy (where a password is set)', () => {
  it('refuses the most common passwords, whatever their case or surrounding spaces', () => {
    for (const common of ['123456', 'password', 'Password', 'PASSWORD', 'qwerty123', ' letmein ', 'iloveyou']) {
      expect(passwordWeakness(common), common).toBe(PASSWORD_POLICY_MESSAGES.common);
    }
  });

  it('refuses one character repeated and passwords of only spaces', () => {
    for (const repeated of ['aaaaaa', '1111111', '########', 'éééééé']) {
      expect(passwordWeakness(repeated), repeated).toBe(PASSWORD_POLICY_MESSAGES.repeated);
    }
    for (const blank of ['      ', '\t\t\t\t\t\t', '        \n']) {
      expect(passwordWeakness(blank), JSON.stringify(blank)).toBe(PASSWORD_POLICY_MESSAGES.blank);
    }
  });

  it('accepts ordinary passwords, and leaves short ones to the spec’s minimum', () => {
    for (const ok of ['admin-password-1', 'correct horse battery', 'Kiosk-paths-2026', 'aaaaab']) {
      expect(passwordWeakness(ok), ok).toBeNull();
    }
    expect(passwordWeakness('12345')).toBeNull();
    expect(messageOf('12345')).toEqual([MESSAGES.passwordMin]);
    expect(messageOf('')).toEqual([MESSAGES.required]);
  });

  it('is part of the rule for a new password, never of sign-in', () => {
    expect(messageOf('123456')).toEqual([PASSWORD_POLICY_MESSAGES.common]);
    expect(messageOf('      ')).toEqual([PASSWORD_POLICY_MESSAGES.blank]);
    expect(messageOf('s3cure-enough')).toBeUndefined();
    expect(LoginRequestSchema.safeParse({ name: 'admin', password: '123456' }).success).toBe(true);
  });
});
