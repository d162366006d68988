import { describe, expect, it } from 'vitest';
import { AuthThrottle, type ThrottleLimits } from './auth-throttle.ts';

// The address and device limits well above the pair's, so the back-off tests see the pair's alone.
const LIMITS: ThrottleLimits = { perPair: 3, perAddress: 50, perDevice: 100, backoffMs: 1_000, maxBackoffMs: 8_000 };

function throttleWith(limits: Partial<ThrottleLimits> = {}) {
  let now = 1_700_000_000_000;
  const throttle = new AuthThrottle({ ...LIMITS, ...limits }, () => now);
  return {
    throttle,
    tick: (ms: number) => void (now += ms),
    /** A wrong secret the way the broker handles it: refused attempts are not checked nor counted. */
    guess: (device: string, address: string) => {
      if (throttle.refused(device, address)) return 'refused';
      throttle.failed(device, address);
      return 'wrong';
    },
    fail: (device: string, address: string, times: number) => {
      for (let i = 0; i < times; i++) throttle.failed(device, address);
    },
  };
}

/** How long `device` from `address` stays refused from now, probing in steps of `step` ms. */
function refusedFor(t: ReturnType<typeof throttleWith>, device: string, address: string, step = 250): number {
  let waited = 0;
  while (t.throttle.refused(device, address)) {
    t.tick(step);
    waited += step;
  }
  return waited;
}

/** Fails dev1 from 10.0.0.1 up to the pair's limit and waits the refusal out; how long it lasted. */
function trip(t: ReturnType<typeof throttleWith>): number {
  t.fail('dev1', '10.0.0.1', LIMITS.perPair);
  return refusedFor(t, 'dev1', '10.0.0.1');
}

describe('AuthThrottle: which keys a wrong secret counts against', () => {
  // Each key's limit, reached with the others kept below theirs: who is refused then, who is not.
  const cases: Array<{
    key: string;
    failures: Array<[string, string]>;
    refused: Array<[string, string]>;
    free: Array<[string, string]>;
  }> = [
    {
      key: 'per (device, address)',
      failures: Array.from({ length: LIMITS.perPair }, () => ['dev1', '10.0.0.1']),
      refused: [['dev1', '10.0.0.1']],
      // A stranger failing a known device id locks out only itself.
      free: [
        ['dev1', '10.0.0.2'],
        ['dev2', '10.0.0.1'],
      ],
    },
    {
      key: 'per address',
      failures: Array.from({ length: LIMITS.perAddress }, (_, i) => [`dev${i}`, '10.0.0.1']),
      refused: [
        ['dev0', '10.0.0.1'],
        ['someone-else', '10.0.0.1'],
      ],
      free: [['dev0', '10.0.0.2']],
    },
    {
      key: 'per device',
      failures: Array.from({ length: LIMITS.perDevice }, (_, i) => ['dev1', `10.0.${i}.1`]),
      refused: [['dev1', '10.9.9.9']],
      free: [['dev2', '10.0.0.1']],
    },
  ];

  for (const { key, failures, refused, free } of cases) {
    it(`refuses ${key} at its limit, not one failure before, and no one else`, () => {
      const t = throttleWith();
      for (const [device, address] of failures.slice(0, -1)) t.throttle.failed(device, address);
      expect(refused.map(([d, a]) => t.throttle.refused(d, a))).toEqual(refused.map(() => false));
      const [device, address] = failures.at(-1)!;
      t.throttle.failed(device, address);
      expect(refused.map(([d, a]) => t.throttle.refused(d, a))).toEqual(refused.map(() => true));
      expect(free.map(([d, a]) => t.throttle.refused(d, a))).toEqual(free.map(() => false));
    });
  }
});

describe('AuthThrottle: back-off', () => {
  it('refuses for backoffMs, doubling at every trip up to maxBackoffMs', () => {
    const t = throttleWith();
    expect(Array.from({ length: 6 }, () => trip(t))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('counts afresh after each trip: the next window needs the whole limit again', () => {
    const t = throttleWith();
    trip(t);
    t.fail('dev1', '10.0.0.1', LIMITS.perPair - 1);
    expect(t.throttle.refused('dev1', '10.0.0.1')).toBe(false);
    t.fail('dev1', '10.0.0.1', 1);
    expect(t.throttle.refused('dev1', '10.0.0.1')).toBe(true);
  });

  it('starts afresh after a key has been quiet for longer than maxBackoffMs', () => {
    const t = throttleWith();
    for (let i = 0; i < 3; i++) trip(t);
    t.tick(LIMITS.maxBackoffMs + 1);
    // Failures counted before the quiet are forgotten too.
    t.fail('dev1', '10.0.0.1', LIMITS.perPair - 1);
    t.tick(LIMITS.maxBackoffMs + 1);
    t.fail('dev1', '10.0.0.1', LIMITS.perPair - 1);
    expect(t.throttle.refused('dev1', '10.0.0.1')).toBe(false);
    t.fail('dev1', '10.0.0.1', 1);
    expect(refusedFor(t, 'dev1', '10.0.0.1')).toBe(1_000);
  });

  it('does not count attempts made while refused: retrying through the window does not lengthen it', () => {
    const t = throttleWith();
    t.fail('dev1', '10.0.0.1', LIMITS.perPair);
    const answers: string[] = [];
    for (let ms = 0; ms < 1_000; ms += 10) {
      answers.push(t.guess('dev1', '10.0.0.1'));
      t.tick(10);
    }
    expect(new Set(answers)).toEqual(new Set(['refused']));
    expect(t.guess('dev1', '10.0.0.1')).toBe('wrong');
    // The next trip is the second, not the hundredth.
    t.fail('dev1', '10.0.0.1', LIMITS.perPair - 1);
    expect(refusedFor(t, 'dev1', '10.0.0.1')).toBe(2_000);
  });

  it('does not count failures that arrive for a key already refused (checks that overlapped)', () => {
    // Guesses on several sockets are checked before any answer lands, so their failures arrive
    // after the key tripped: they were not refused, but counting them would stretch the window.
    const t = throttleWith();
    t.fail('dev1', '10.0.0.1', 4 * LIMITS.perPair);
    expect(refusedFor(t, 'dev1', '10.0.0.1')).toBe(1_000);
  });
});

describe('AuthThrottle: the right secret', () => {
  it("starts the device's counts afresh, from this address and from others", () => {
    const t = throttleWith();
    t.fail('dev1', '10.0.0.1', LIMITS.perPair - 1);
    for (let i = 0; i < LIMITS.perDevice - 1; i++) t.throttle.failed('dev1', `10.1.${i}.1`);
    t.throttle.succeeded('dev1', '10.0.0.1');
    t.fail('dev1', '10.0.0.1', LIMITS.perPair - 1);
    expect(t.throttle.refused('dev1', '10.0.0.1')).toBe(false);
    expect(t.throttle.refused('dev1', '10.9.9.9')).toBe(false);
  });

  it('resets the doubling of its pair', () => {
    const t = throttleWith();
    for (let i = 0; i < 3; i++) trip(t);
    t.throttle.succeeded('dev1', '10.0.0.1');
    expect(trip(t)).toBe(1_000);
  });

  it("leaves the address's count: one known device does not clear a scanner's record", () => {
    const t = throttleWith();
    for (let i = 0; i < LIMITS.perAddress - 1; i++) t.throttle.failed(`dev${i}`, '10.0.0.1');
    t.throttle.succeeded('mine', '10.0.0.1');
    t.throttle.failed('dev99', '10.0.0.1');
    expect(t.throttle.refused('mine', '10.0.0.1')).toBe(true);
  });
});
