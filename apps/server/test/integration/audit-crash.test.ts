import { describe, expect, it } from 'vitest';
import { crashRun } from '../../../../scripts/crash-audit.mjs';

// Issue 26: kill -9 of the built server during a burst of device creations. Two runs here; the
// twenty-run loop is `node scripts/crash-audit.mjs` (a run starts a server: seconds each). The
// server runs alone on PGlite in both tiers: in scale mode it must not join the suite's cluster.
describe('the audit log across kill -9', () => {
  it('has an entry for every acknowledged creation, and no entry without its device', async () => {
    for (let run = 0; run < 2; run++) {
      const r = await crashRun();
      expect(r.acked).toBeGreaterThan(0);
      expect(r.ackedWithoutEntry).toEqual([]);
      expect(r.entryWithoutDevice).toEqual([]);
      expect(r.entries).toBe(r.stored);
    }
  }, 180_000);
});
