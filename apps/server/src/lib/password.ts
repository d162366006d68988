import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id parameters: 19 MiB memory, 2 passes, 1 lane. Algorithm 2 is argon2id. */
export const ARGON2_PARAMS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id on the libuv thread pool (off the event loop). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

// Verifying against this when the account does not exist costs the same time as a real check.
let dummyHash: Promise<string> | undefined;

/** True when `password` matches `stored`; with no stored hash it still spends the same time and answers false. */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
