import { eq } from 'drizzle-orm';
import type { LoginRequest, LoginResponse } from '@fleet/shared/schemas/session';
import { accounts } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { Deps } from '../deps.ts';
import { issueTokens } from './issue-tokens.ts';
import { assertNotThrottled, clearFailures, recordFailure, throttleLimits } from './throttle.ts';

/** The entity a superadmin's session answers with: the landlord scope, not a tenant. */
export const LANDLORD_ENTITY = 'landlord';

// One answer for an unknown name and a wrong password, so neither reveals which it was.
const badCredentials = () => new HttpError(401, 'Wrong username or password', 'Invalid credentials');

/**
 * Checks a name and password and starts a session; throttled per account name and address pair,
 * per address, and per account name under a sustained attack (throttle.ts).
 */
export async function login(
  deps: Deps,
  input: LoginRequest,
  ip: string,
  now: () => Date = () => new Date(),
): Promise<LoginResponse> {
  const limits = throttleLimits(input.name, ip);
  await assertNotThrottled(deps.db, limits, now());
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.name, input.name)).limit(1);
  const ok = await verifyPassword(account?.password_hash, input.password);
  if (!account || !ok) {
    const at = now();
    for (const limit of limits) await recordFailure(deps.db, limit, at);
    throw badCredentials();
  }
  // The owner's success clears what this address spent on the name; the sustained count stays.
  await clearFailures(deps.db, limits[0]);
  const tokens = await issueTokens(deps, deps.db, account);
  return { ...tokens, logged_in_as: account.name, entity: account.entity ?? LANDLORD_ENTITY };
}
