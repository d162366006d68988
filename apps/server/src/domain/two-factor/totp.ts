import { randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';

/** The clock codes are checked against; tests set `now` (integration tests run the server in-process). */
export const twoFactorClock = { now: (): Date => new Date() };

/** Seconds a code lasts (RFC 6238's default, what every authenticator app uses). */
export const STEP_SECONDS = 30;

/** The issuer an authenticator app shows beside the account's name. */
export const TOTP_ISSUER = 'Fleet Console';

/** Recovery codes handed out at enrolment. */
export const RECOVERY_CODE_COUNT = 10;

/** A new shared secret: 160 random bits in base32 (RFC 4226's recommended length). */
export function newSecret(): string {
  return authenticator.generateSecret(20);
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(account: string, secret: string): string {
  return authenticator.keyuri(account, TOTP_ISSUER, secret);
}

/**
 * The time step `code` was generated for, within one step either side of `at`, or null when it
 * matches none. The caller refuses a step at or before the last one accepted (replay).
 */
export function matchStep(secret: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const check = authenticator.clone({ window: 1, epoch: at.getTime(), step: STEP_SECONDS });
  const delta = check.checkDelta(code, secret);
  if (delta === null) return null;
  return Math.floor(at.getTime() / 1000 / STEP_SECONDS) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten recovery codes like `k7m2p-q9x4t` (50 bits each, no look-alike characters). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** A recovery code as typed: case and spaces ignored, the hyphen optional. */
export function normaliseRecoveryCode(code: string): string {
  const plain = code.toLowerCase().replace(/[\s-]/g, '');
  return plain.length === 10 ? `${plain.slice(0, 5)}-${plain.slice(5)}` : plain;
}
