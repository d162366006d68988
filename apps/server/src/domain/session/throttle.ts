import { inArray, sql } from 'drizzle-orm';
import { loginThrottle } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';

/** Failed sign-ins allowed per window, per account name and per client address. */
export const THROTTLE = {
  windowSeconds: 15 * 60,
  blockSeconds: 15 * 60,
  maxPerAccount: 5,
  maxPerAddress: 30,
} as const;

export const accountKey = (name: string) => `acct:${name.toLowerCase()}`;
export const addressKey = (ip: string) => `addr:${ip}`;

/** Throws 429 when any of the keys is blocked. The name need not exist: blocking reveals nothing. */
export async function assertNotThrottled(db: Db, keys: string[]): Promise<void> {
  const rows = await db
    .select({ blocked_until: loginThrottle.blocked_until })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys));
  const now = Date.now();
  const until = Math.max(0, ...rows.map((r) => r.blocked_until?.getTime() ?? 0));
  if (until > now) {
    const retryAfter = Math.ceil((until - now) / 1000);
    throw new HttpError(
      429,
      'Too many failed sign-in attempts. Try again later.',
      `Sign-in blocked for ${retryAfter} s after repeated failures`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
}

/** Counts one failure against a key, blocking it once it reaches `max` within the window. */
export async function recordFailure(db: Db, key: string, max: number): Promise<void> {
  const window = sql.raw(`interval '${THROTTLE.windowSeconds} seconds'`);
  const block = sql.raw(`interval '${THROTTLE.blockSeconds} seconds'`);
  const stale = sql`${loginThrottle.window_started_at} < now() - ${window}`;
  await db
    .insert(loginThrottle)
    .values({ key, failures: 1, window_started_at: sql`now()` })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${stale} then 1 else ${loginThrottle.failures} + 1 end`,
        window_started_at: sql`case when ${stale} then now() else ${loginThrottle.window_started_at} end`,
        blocked_until: sql`case when not (${stale}) and ${loginThrottle.failures} + 1 >= ${max} then now() + ${block} else ${loginThrottle.blocked_until} end`,
      },
    });
}

/** Clears a key's failures after a successful sign-in. */
export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
}
