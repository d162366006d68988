import type { DevicePublishKind } from '@fleet/shared/protocol';
import { describe, expect, it } from 'vitest';
import { DeviceBudget, MAX_PAUSE_MS, type BudgetLimits } from './device-budget.ts';

const LIMITS: BudgetLimits = {
  kinds: {
    state: { rate: 10, burst: 50 },
    reply: { rate: 20, burst: 100 },
    events: { rate: 40, burst: 200 },
    beacon: { rate: 100, burst: 500 },
  },
  cutOffAfterMs: 10_000,
  coolDownMs: 60_000,
};
/** DeviceBudget's MAX_DEVICES. */
const MAX_DEVICES = 200_000;

function budgetWith(limits: Partial<BudgetLimits> = {}) {
  let now = 1_700_000_000_000;
  const budget = new DeviceBudget({ ...LIMITS, ...limits }, () => now);
  const cutOffs: string[] = [];
  budget.onCutOff = (device) => cutOffs.push(device);
  return {
    budget,
    cutOffs,
    tick: (ms: number) => void (now += ms),
    /** Sends `count` messages at this instant; how many were admitted. */
    send: (device: string, kind: DevicePublishKind, count = 1) => {
      let admitted = 0;
      for (let i = 0; i < count; i++) if (budget.admit(device, kind)) admitted++;
      return admitted;
    },
  };
}
type Budget = ReturnType<typeof budgetWith>;

/**
 * Sends `perSecond` state messages a second for `ms`, one every 1000/perSecond ms; how many were
 * admitted. At twice the state rate a drop comes every 200 ms or so: one unbroken episode.
 */
function stream(b: Budget, device: string, perSecond: number, ms: number): number {
  const step = 1000 / perSecond;
  let admitted = 0;
  for (let t = 0; t < ms; t += step) {
    admitted += b.send(device, 'state');
    b.tick(step);
  }
  return admitted;
}

/** Spends the state burst, then keeps over budget until just before the cut-off. */
function nearlyCutOff(b: Budget, device: string) {
  b.send(device, 'state', LIMITS.kinds.state.burst + 1); // the first drop starts the episode
  stream(b, device, 20, LIMITS.cutOffAfterMs - 100);
}

describe('DeviceBudget: token buckets', () => {
  it('admits a fresh device its burst at once, per kind, then drops', () => {
    const b = budgetWith();
    const admitted = (['state', 'reply', 'events', 'beacon'] as const).map((kind) => b.send('dev1', kind, 10_000));
    expect(admitted).toEqual([50, 100, 200, 500]);
  });

  it('keeps devices apart: one spending its budget leaves another whole', () => {
    const b = budgetWith();
    b.send('dev1', 'beacon', 10_000);
    expect(b.send('dev2', 'beacon', 10_000)).toBe(500);
  });

  it('sustains exactly the rate once the burst is spent', () => {
    const b = budgetWith();
    b.send('dev1', 'state', LIMITS.kinds.state.burst);
    b.tick(100);
    // 10/s for 60 s: all admitted; then 20/s for 5 s (short of the cut-off): half.
    expect(stream(b, 'dev1', 10, 60_000)).toBe(600);
    expect(stream(b, 'dev1', 20, 5_000)).toBe(50);
  });

  it('refills at the rate while idle, up to the burst and no further', () => {
    const b = budgetWith();
    b.send('dev1', 'state', 10_000);
    b.tick(1_000);
    expect(b.send('dev1', 'state', 10_000)).toBe(10);
    b.tick(2_500);
    expect(b.send('dev1', 'state', 10_000)).toBe(25);
    b.tick(3_600_000);
    expect(b.send('dev1', 'state', 10_000)).toBe(50);
  });
});

describe('DeviceBudget: cut-off', () => {
  it('cuts a device off once it has been over budget for cutOffAfterMs without a pause, and says so once', () => {
    const b = budgetWith();
    nearlyCutOff(b, 'dev1');
    expect(b.budget.isCutOff('dev1')).toBe(false);
    expect(b.cutOffs).toEqual([]);
    stream(b, 'dev1', 20, 200);
    expect(b.budget.isCutOff('dev1')).toBe(true);
    stream(b, 'dev1', 20, 5_000);
    expect(b.cutOffs).toEqual(['dev1']);
  });

  it('counts only drops: a device at its rate for longer than cutOffAfterMs is not cut off', () => {
    const b = budgetWith();
    b.send('dev1', 'state', LIMITS.kinds.state.burst);
    stream(b, 'dev1', 10, 5 * LIMITS.cutOffAfterMs);
    expect(b.budget.isCutOff('dev1')).toBe(false);
  });

  // A pause is a stretch without drops; one over a second ends the episode.
  const pauses: Array<[number, boolean]> = [
    [1_000, true],
    [1_001, false],
    [5_000, false],
  ];
  for (const [pauseMs, cut] of pauses) {
    it(`a pause of ${pauseMs} ms between drops ${cut ? 'does not reset' : 'resets'} the persistence`, () => {
      const b = budgetWith({ kinds: { ...LIMITS.kinds, state: { rate: 0.001, burst: 1 } } });
      b.send('dev1', 'state', 2);
      for (let t = 0; t < LIMITS.cutOffAfterMs - 1_000; t += 500) {
        b.tick(500);
        b.send('dev1', 'state');
      }
      b.tick(pauseMs);
      b.send('dev1', 'state');
      for (let t = 0; t < LIMITS.cutOffAfterMs - pauseMs; t += 500) {
        b.tick(500);
        b.send('dev1', 'state');
      }
      expect(b.budget.isCutOff('dev1')).toBe(cut);
    });
  }

  it('drops everything of every kind during the cool-down, then takes the device back with a full burst', () => {
    const b = budgetWith();
    nearlyCutOff(b, 'dev1');
    stream(b, 'dev1', 20, 200);
    b.tick(LIMITS.coolDownMs - 1 - 200);
    expect(b.budget.isCutOff('dev1')).toBe(true);
    expect(b.send('dev1', 'reply')).toBe(0);
    expect(b.send('dev1', 'beacon')).toBe(0);
    b.tick(200);
    expect(b.budget.isCutOff('dev1')).toBe(false);
    expect(b.send('dev1', 'state', 10_000)).toBe(50);
    // A new episode: it takes cutOffAfterMs again.
    stream(b, 'dev1', 20, LIMITS.cutOffAfterMs - 500);
    expect(b.budget.isCutOff('dev1')).toBe(false);
    expect(b.cutOffs).toEqual(['dev1']);
  });
});

describe('DeviceBudget: how long a refused device is not read', () => {
  it('is the time until its bucket holds half a second of its rate, and nothing for a device it has not seen', () => {
    const b = budgetWith();
    expect(b.budget.pauseMs('dev1', 'state')).toBe(0);
    b.send('dev1', 'state', LIMITS.kinds.state.burst + 1);
    // 10/s: 5 messages to refill, 500 ms.
    expect(b.budget.pauseMs('dev1', 'state')).toBe(500);
    b.tick(300);
    expect(b.budget.pauseMs('dev1', 'state')).toBeCloseTo(200);
    b.tick(200);
    expect(b.budget.pauseMs('dev1', 'state')).toBe(0);
  });

  it(`is at most ${MAX_PAUSE_MS} ms, however slow the rate, and at least one message's worth`, () => {
    const b = budgetWith({ kinds: { ...LIMITS.kinds, state: { rate: 0.01, burst: 1 }, reply: { rate: 1, burst: 1 } } });
    b.send('dev1', 'state', 2);
    expect(b.budget.pauseMs('dev1', 'state')).toBe(MAX_PAUSE_MS);
    b.send('dev1', 'reply', 2);
    b.tick(400);
    // One message at 1/s: 600 ms still to go, capped.
    expect(b.budget.pauseMs('dev1', 'reply')).toBe(MAX_PAUSE_MS);
  });

  it('keeps a device that floods again each time it is read in one episode: it is cut off', () => {
    const b = budgetWith();
    let elapsed = 0;
    while (!b.budget.isCutOff('dev1') && elapsed < 2 * LIMITS.cutOffAfterMs) {
      // What one read of the socket holds: a few hundred messages, then the pause.
      b.send('dev1', 'state', 300);
      const ms = b.budget.pauseMs('dev1', 'state');
      b.tick(ms);
      elapsed += ms;
    }
    expect(b.budget.isCutOff('dev1')).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(LIMITS.cutOffAfterMs);
    expect(elapsed).toBeLessThanOrEqual(LIMITS.cutOffAfterMs + MAX_PAUSE_MS);
  });
});

describe('DeviceBudget: memory', () => {
  const remembered = (b: Budget) => (b.budget as unknown as { accounts: Map<string, unknown> }).accounts.size;

  it(`remembers at most ${MAX_DEVICES} devices, keeping those cut off and those over budget`, () => {
    const b = budgetWith();
    nearlyCutOff(b, 'cut');
    stream(b, 'cut', 20, 200);
    nearlyCutOff(b, 'flooding');
    b.tick(100);
    for (let i = 0; i < MAX_DEVICES + 10; i++) b.send(`d${i}`, 'state');
    expect(remembered(b)).toBeLessThanOrEqual(MAX_DEVICES);
    expect(b.budget.isCutOff('cut')).toBe(true);
    // Its episode was kept: the drop that completes cutOffAfterMs cuts it off.
    stream(b, 'flooding', 20, 200);
    expect(b.budget.isCutOff('flooding')).toBe(true);
  });
});
