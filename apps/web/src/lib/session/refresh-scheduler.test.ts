import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH } from '@fleet/shared/constants';
import {
  RefreshScheduler,
  adaptFraction,
  computeRefreshDelay,
  retryDelay,
  type RefreshSchedulerDeps,
} from './refresh-scheduler.ts';
import { makeAccessToken } from './test-tokens.ts';
import { RefreshError, type RefreshOutcome } from './token-refresher.ts';

const MINUTE = 60_000;

/** A scheduler over a fake token source; each successful refresh issues a token of `nextLifetime`. */
function setup(options: { lifetimeMs?: number; issuedAgoMs?: number; config?: RefreshSchedulerDeps['config'] } = {}) {
  const lifetime = options.lifetimeMs ?? 10 * MINUTE;
  let token: string | null = makeAccessToken(Date.now() - (options.issuedAgoMs ?? 0), lifetime);
  const state = { nextLifetime: lifetime, nextIssuedAgo: 0 };
  const refresh = vi.fn(async (): Promise<RefreshOutcome> => {
    token = makeAccessToken(Date.now() - state.nextIssuedAgo, state.nextLifetime);
    return 'refreshed';
  });
  const onExpired = vi.fn();
  const onGiveUp = vi.fn();
  const scheduler = new RefreshScheduler({
    getAccessToken: () => token,
    refresh,
    onExpired,
    onGiveUp,
    config: options.config,
  });
  return { scheduler, refresh, onExpired, onGiveUp, state, setToken: (t: string | null) => (token = t) };
}

/** Advances the fake clock, letting refresh promises settle on the way. */
async function advance(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

/** Runs the one pending timer (the next refresh) and lets it settle. */
async function nextRefresh() {
  await vi.advanceTimersToNextTimerAsync();
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(1_700_000_000_000);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('refresh delay', () => {
  it('waits 0.7 of the remaining life minus 5 s at first', async () => {
    const { scheduler, refresh } = setup({ lifetimeMs: 10 * MINUTE });
    scheduler.start();
    const expected = 0.7 * 10 * MINUTE - 5_000; // 415 s
    await advance(expected - 1);
    expect(refresh).not.toHaveBeenCalled();
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('never waits less than the 5 s floor', async () => {
    const { scheduler, refresh } = setup({ lifetimeMs: 10_000 }); // 0.7 × 10 s − 5 s = 2 s
    scheduler.start();
    await advance(4_999);
    expect(refresh).not.toHaveBeenCalled();
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(computeRefreshDelay(1_000, 0.7)).toBe(REFRESH.floorMs);
  });

  it('uses the remaining life, not the full lifespan', async () => {
    // Issued 4 of 10 minutes ago: 6 minutes remain, so 0.7 × 360 s − 5 s = 247 s.
    const { scheduler, refresh } = setup({ lifetimeMs: 10 * MINUTE, issuedAgoMs: 4 * MINUTE });
    scheduler.start();
    await advance(247_000 - 1);
    expect(refresh).not.toHaveBeenCalled();
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes at once on start when within the expiry buffer', async () => {
    const { scheduler, refresh } = setup({ lifetimeMs: 10 * MINUTE, issuedAgoMs: 6 * MINUTE });
    scheduler.start({ refreshWithinMs: REFRESH.expiryBufferMs });
    await advance(0);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe('adaptive fraction', () => {
  it('keeps 0.7 until 5 refreshes are recorded, then uses 0.9 × the average ratio', async () => {
    const lifetime = 10 * MINUTE;
    const { scheduler, refresh } = setup({ lifetimeMs: lifetime });
    scheduler.start();
    // At 0.7 the refresh comes when (1 − 0.7) of the life plus the 5 s margin remains.
    const ratio = (lifetime - (0.7 * lifetime - 5_000)) / lifetime;
    for (let i = 1; i <= 4; i++) {
      await advance(0.7 * lifetime - 5_000);
      expect(refresh).toHaveBeenCalledTimes(i);
      expect(scheduler.fraction).toBe(REFRESH.initialFraction);
    }
    await advance(0.7 * lifetime - 5_000);
    expect(refresh).toHaveBeenCalledTimes(5);
    expect(scheduler.history).toHaveLength(5);
    for (const recorded of scheduler.history) expect(recorded).toBeCloseTo(ratio, 9);
    expect(scheduler.fraction).toBeCloseTo(0.9 * ratio, 9);

    // The sixth refresh is scheduled with the adapted fraction.
    const adapted = Math.ceil(0.9 * ratio * lifetime - 5_000);
    await advance(adapted - 1);
    expect(refresh).toHaveBeenCalledTimes(5);
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(6);
  });

  it('clamps the fraction at 0.1 when refreshes come late', async () => {
    // Tokens issued long ago with little life left: ratio ≈ 0.01 each time.
    const { scheduler, state } = setup({ lifetimeMs: 100 * MINUTE, issuedAgoMs: 99 * MINUTE });
    state.nextLifetime = 100 * MINUTE;
    state.nextIssuedAgo = 99 * MINUTE;
    scheduler.start();
    for (let i = 0; i < 5; i++) await nextRefresh();
    expect(scheduler.history).toHaveLength(5);
    expect(0.9 * Math.max(...scheduler.history)).toBeLessThan(0.1);
    expect(scheduler.fraction).toBe(REFRESH.minFraction);
  });

  it('clamps the fraction at 0.9', async () => {
    // Ratios of about 0.31 times a factor of 3 exceed 0.9.
    const { scheduler } = setup({ lifetimeMs: 10 * MINUTE, config: { adaptFactor: 3 } });
    scheduler.start();
    for (let i = 0; i < 5; i++) await nextRefresh();
    expect(scheduler.history).toHaveLength(5);
    expect(3 * Math.min(...scheduler.history)).toBeGreaterThan(0.9);
    expect(scheduler.fraction).toBe(REFRESH.maxFraction);
    expect(adaptFraction([1, 1, 1, 1, 1], { ...REFRESH, adaptFactor: 2 })).toBe(0.9);
    expect(adaptFraction([0.01, 0.01, 0.01, 0.01, 0.01])).toBe(0.1);
    expect(adaptFraction([0.5, 0.5, 0.5, 0.5])).toBe(0.7);
  });

  it('keeps only the last 10 ratios', async () => {
    const { scheduler, state } = setup({ lifetimeMs: 10 * MINUTE });
    scheduler.start();
    // Vary the lifetime of each new token so every recorded ratio is distinct.
    const all: number[] = [];
    for (let i = 0; i < 12; i++) {
      state.nextLifetime = (11 + i * 7) * 1_000 + 37;
      await nextRefresh();
      const latest = scheduler.history.at(-1);
      if (latest !== undefined) all.push(latest);
    }
    expect(new Set(all).size).toBe(12);
    expect(all).toHaveLength(12);
    expect(scheduler.history).toHaveLength(10);
    expect(scheduler.history).toEqual(all.slice(2));
  });

  it('does not record a refresh another tab made (adopted pair)', async () => {
    const { scheduler, refresh } = setup({ lifetimeMs: 10 * MINUTE });
    refresh.mockResolvedValueOnce('adopted');
    scheduler.start();
    await nextRefresh();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(scheduler.history).toHaveLength(0);
  });
});

describe('expired token', () => {
  it('clears the session instead of scheduling', async () => {
    const { scheduler, refresh, onExpired, setToken } = setup();
    setToken(makeAccessToken(Date.now() - 20 * MINUTE, 10 * MINUTE));
    scheduler.start();
    await advance(60 * MINUTE);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(refresh).not.toHaveBeenCalled();
  });
});

describe('failures', () => {
  it('retries after 5 s, then 10 s, and signs out after the 3rd consecutive failure', async () => {
    const lifetime = 10 * MINUTE;
    const { scheduler, refresh, onGiveUp } = setup({ lifetimeMs: lifetime });
    refresh.mockRejectedValue(new RefreshError('down', { fatal: false, status: 503 }));
    scheduler.start();
    await advance(0.7 * lifetime - 5_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(scheduler.failures).toBe(1);

    await advance(4_999);
    expect(refresh).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(2);

    await advance(9_999);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(onGiveUp).not.toHaveBeenCalled();
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(3);
    expect(onGiveUp).toHaveBeenCalledTimes(1);

    await advance(60 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('caps the retry wait at 30 s', async () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => retryDelay(attempt))).toEqual([
      5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 30_000, 30_000,
    ]);
    // With more attempts allowed, the scheduler itself waits 30 s after the 6th and 7th failure.
    const { scheduler, refresh } = setup({ lifetimeMs: 10 * MINUTE, config: { maxFailures: 10 } });
    refresh.mockRejectedValue(new Error('down'));
    scheduler.start();
    await advance(0.7 * 10 * MINUTE - 5_000);
    await advance(5_000 + 10_000 + 15_000 + 20_000 + 25_000);
    expect(refresh).toHaveBeenCalledTimes(6);
    await advance(29_999);
    expect(refresh).toHaveBeenCalledTimes(6);
    await advance(1);
    expect(refresh).toHaveBeenCalledTimes(7);
    await advance(30_000);
    expect(refresh).toHaveBeenCalledTimes(8);
  });

  it('resets the failure count after a success', async () => {
    const lifetime = 10 * MINUTE;
    const { scheduler, refresh, onGiveUp } = setup({ lifetimeMs: lifetime });
    refresh.mockRejectedValueOnce(new Error('down')).mockRejectedValueOnce(new Error('down'));
    scheduler.start();
    await advance(0.7 * lifetime - 5_000 + 5_000 + 10_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    expect(scheduler.failures).toBe(0);

    // Two more failures after the success still stay below the limit of three.
    refresh.mockRejectedValueOnce(new Error('down')).mockRejectedValueOnce(new Error('down'));
    await advance(0.7 * lifetime - 5_000);
    expect(scheduler.failures).toBe(1);
    await advance(5_000);
    expect(scheduler.failures).toBe(2);
    await advance(10_000);
    expect(refresh).toHaveBeenCalledTimes(6);
    expect(scheduler.failures).toBe(0);
    expect(onGiveUp).not.toHaveBeenCalled();
  });

  it('signs out at once when the server refuses the refresh token', async () => {
    const { scheduler, refresh, onGiveUp } = setup();
    refresh.mockRejectedValue(new RefreshError('revoked', { fatal: true, status: 401 }));
    scheduler.start();
    await advance(10 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onGiveUp).toHaveBeenCalledTimes(1);
  });

  it('stops when stopped', async () => {
    const { scheduler, refresh } = setup();
    scheduler.start();
    scheduler.stop();
    await advance(60 * MINUTE);
    expect(refresh).not.toHaveBeenCalled();
  });
});
