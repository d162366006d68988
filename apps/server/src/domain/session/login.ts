import { eq } from 'drizzle-orm';
import type { LoginRequest, LoginResponse } from '@fleet/shared/schemas/session';
import { accounts } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { Deps } from '../deps.ts';
import { issueTokens } from './issue-tokens.ts';
import { THROTTLE, accountKey, addressKey, assertNotThrottled, clearFailures, recordFailure } from './throttle.ts';

/** The entity a superadmin's session answers with: the landlord scope, not a tenant. */
export const LANDLORD_ENTITY = 'landlord';

// One answer for an unknown name and a wrong password, so neither reveals which it was.
const badCredentials = () => new HttpError(401, 'Wrong username or password', 'Invalid credentials');

/** Checks a name and password and starts a session; throttled per account name and per address. */
export async function login(deps: Deps, input: LoginRequest, ip: string): Promise<LoginResponse> {
  const keys = [accountKey(input.name), addressKey(ip)];
  await assertNotThrottled(deps.db, keys);
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.name, input.name)).limit(1);
  const ok = await verifyPassword(account?.password_hash, input.password);
  if (!account || !ok) {
    await recordFailure(deps.db, accountKey(input.name), THROTTLE.maxPerAccount);
    await recordFailure(deps.db, addressKey(ip), THROTTLE.maxPerAddress);
    throw badCredentials();
  }
  await clearFailures(deps.db, accountKey(input.name));
  const tokens = await issueTokens(deps, deps.db, account);
  return { ...tokens, logged_in_as: account.name, entity: account.entity ?? LANDLORD_ENTITY };
}
