import { describe, expect, it } from 'vitest';
import { crashRolloutRun } from '../../../../scripts/crash-rollout.mjs';

// Issue 28: kill -9 of the built server mid-rollout. Two runs here; the ten-run loop is
// `node scripts/crash-rollout.mjs 10`. Neither reads the states at the kill (a database open as
// dear as a server's start, for the script's printout only). The server runs alone on PGlite in
// both tiers: in scale mode it must not join the suite's cluster.
describe('a rollout across kill -9', () => {
  it('sends every device each step at most once, forgets none, and finishes', async () => {
    for (let run = 0; run < 2; run++) {
      const r = await crashRolloutRun({ devices: 16, atKill: false });
      // The whole record on a failure: the rollout's state, pause reason and counts say why.
      expect(r).toMatchObject({ finished: true, devices: 16, sentTwice: [], receivedTwoSteps: [], forgotten: [] });
      expect(r.counts.succeeded + r.counts.failed).toBe(16);
    }
  }, 400_000);
});
