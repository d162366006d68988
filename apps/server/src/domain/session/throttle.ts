import { inArray, sql } from 'drizzle-orm';
import { loginThrottle } from '../../db/schema.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';

/**
 * Failed sign-ins allowed per window (docs/decisions/2026-11-25-sign-in-lock-out.md). An account
 * name is limited per client address, so a stranger failing from one address does not lock the
 * owner out at another; only a sustained attack from many addresses blocks the name everywhere.
 */
export const THROTTLE = {
  windowSeconds: 15 * 60,
  blockSeconds: 15 * 60,
  /** Failures for one account name from one address (the pair). */
  maxPerAccount: 5,
  /** Failures from one address, whatever the names. */
  maxPerAddress: 30,
  /** Failures for one account name from every address together: a sustained attack. */
  sustained: { windowSeconds: 60 * 60, blockSeconds: 60 * 60, maxPerAccount: 100 },
} as const;

/** One counter: its key, how many failures its window allows, and how long it then blocks. */
export interface ThrottleLimit {
  key: string;
  max: number;
  windowSeconds: number;
  blockSeconds: number;
}

/** The three counters a sign-in attempt of `name` from `ip` is held to. */
export function throttleLimits(
  name: string,
  ip: string,
): [pair: ThrottleLimit, address: ThrottleLimit, account: ThrottleLimit] {
  const account = name.toLowerCase();
  const short = { windowSeconds: THROTTLE.windowSeconds, blockSeconds: THROTTLE.blockSeconds };
  return [
    // An address never holds a slash, so the key reads one way only.
    { key: `pair:${ip}/${account}`, max: THROTTLE.maxPerAccount, ...short },
    { key: `addr:${ip}`, max: THROTTLE.maxPerAddress, ...short },
    {
      key: `acct:${account}`,
      max: THROTTLE.sustained.maxPerAccount,
      windowSeconds: THROTTLE.sustained.windowSeconds,
      blockSeconds: THROTTLE.sustained.blockSeconds,
    },
  ];
}

/** Throws 429 when any of the counters is blocked at `now`. The name need not exist: blocking reveals nothing. */
export async function assertNotThrottled(db: Db, limits: ThrottleLimit[], now: Date): Promise<void> {
  const rows = await db
    .select({ blocked_until: loginThrottle.blocked_until })
    .from(loginThrottle)
    .where(
      inArray(
        loginThrottle.key,
        limits.map((l) => l.key),
      ),
    );
  const until = Math.max(0, ...rows.map((r) => r.blocked_until?.getTime() ?? 0));
  if (until > now.getTime()) {
    const retryAfter = Math.ceil((until - now.getTime()) / 1000);
    throw new HttpError(
      429,
      'Too many failed sign-in attempts. Try again later.',
      `Sign-in blocked for ${retryAfter} s after repeated failures`,
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
}

/** Counts one failure against a counter, blocking it once it reaches its maximum within its window. */
export async function recordFailure(db: Db, limit: ThrottleLimit, now: Date): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const window = sql.raw(`interval '${limit.windowSeconds} seconds'`);
  const block = sql.raw(`interval '${limit.blockSeconds} seconds'`);
  const stale = sql`${loginThrottle.window_started_at} <= ${at} - ${window}`;
  await db
    .insert(loginThrottle)
    .values({ key: limit.key, failures: 1, window_started_at: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${stale} then 1 else ${loginThrottle.failures} + 1 end`,
        window_started_at: sql`case when ${stale} then ${at} else ${loginThrottle.window_started_at} end`,
        blocked_until: sql`case when not (${stale}) and ${loginThrottle.failures} + 1 >= ${limit.max} then ${at} + ${block} else ${loginThrottle.blocked_until} end`,
      },
    });
}

/** Clears a counter after a successful sign-in. */
export async function clearFailures(db: Db, limit: ThrottleLimit): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [limit.key]));
}
