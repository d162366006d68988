import { eq } from 'drizzle-orm';
import type { LoginRequest } from '@fleet/shared/schemas/session';
import type { LoginOrChallenge } from '@fleet/shared/schemas/two-factor';
import { accounts } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/password.ts';
import { accountContext, type AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure as recordAuditFailure } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { secondStep } from '../two-factor/second-step.ts';
import { issueTokens } from './issue-tokens.ts';
import { assertNotThrottled, clearFailures, recordFailure, throttleLimits } from './throttle.ts';

/** The entity a superadmin's session answers with: the landlord scope, not a tenant. */
export const LANDLORD_ENTITY = 'landlord';

// One answer for an unknown name and a wrong password, so neither reveals which it was.
const badCredentials = () => new HttpError(401, 'Wrong username or password', 'Invalid credentials');

/**
 * Checks a name and password and starts a session; throttled per account name and address pair,
 * per address, and per account name under a sustained attack (throttle.ts). An account with a
 * second factor (or one its scope requires) gets a challenge instead of tokens (docs/two-factor.md).
 */
export async function login(
  deps: Deps,
  input: LoginRequest,
  from: AuditContext,
  now: () => Date = () => new Date(),
): Promise<LoginOrChallenge> {
  const ip = from.address ?? '';
  // The name tried acts, known or not; a failure goes to its entity's log when it has one.
  const ctx = accountContext(input.name, from);
  const entry = { action: 'session.login', target: { type: 'account', name: input.name } } as const;
  const limits = throttleLimits(input.name, ip);
  try {
    await assertNotThrottled(deps.db, limits, now());
  } catch (err) {
    if (err instanceof HttpError) await recordAuditFailure(deps.db, ctx, { ...entry, entity: null }, err);
    throw err;
  }
  const [account] = await deps.db.select().from(accounts).where(eq(accounts.name, input.name)).limit(1);
  const ok = await verifyPassword(account?.password_hash, input.password);
  if (!account || !ok) {
    const at = now();
    for (const limit of limits) await recordFailure(deps.db, limit, at);
    const err = badCredentials();
    const why = new HttpError(401, err.userMessage, account ? 'Wrong password' : 'Unknown account');
    await recordAuditFailure(deps.db, ctx, { ...entry, entity: account?.entity ?? null }, why);
    throw err;
  }
  // A second step keeps the counters: its wrong codes add to them until the sign-in finishes.
  const challenge = await secondStep(deps, account);
  if (challenge) return challenge;
  // The owner's success clears what this address spent on the name; the sustained count stays.
  await clearFailures(deps.db, limits[0]);
  const tokens = await audited(deps.db, ctx, { ...entry, entity: account.entity }, (tx) =>
    issueTokens(deps, tx, account),
  );
  return { ...tokens, logged_in_as: account.name, entity: account.entity ?? LANDLORD_ENTITY };
}
