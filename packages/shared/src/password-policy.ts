import COMMON_PASSWORDS from './common-passwords.json' with { type: 'json' };
import { PASSWORD_MIN_LENGTH } from './constants.ts';

/**
 * Where a password is set (account create, password change, ADMIN_PASSWORD), beyond the spec's
 * six characters: no password from the breached-password list, none of one character repeated,
 * none of only spaces (OWASP ASVS v5 §6.2; docs/decisions/2026-11-25-password-policy.md). Never
 * applied at sign-in, so an account with an older weak password still signs in.
 */
export const PASSWORD_POLICY_MESSAGES = {
  common: 'This password is too common: choose one that is harder to guess',
  repeated: 'The password may not be one character repeated',
  blank: 'The password may not be only spaces',
} as const;

/** The most common passwords (docs/decisions), lower case; compared case-insensitively. */
const COMMON = new Set<string>(COMMON_PASSWORDS);

/**
 * The policy's message for a password that is long enough but too weak, or null when it passes.
 * Shorter passwords are left to the minimum-length rule and its message.
 */
export function passwordWeakness(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return null;
  const trimmed = password.trim();
  if (trimmed === '') return PASSWORD_POLICY_MESSAGES.blank;
  if (new Set(password).size === 1) return PASSWORD_POLICY_MESSAGES.repeated;
  if (COMMON.has(trimmed.toLowerCase())) return PASSWORD_POLICY_MESSAGES.common;
  return null;
}
