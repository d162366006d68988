import { describe, expect, it } from 'vitest';
import { mayChangeBeacons, mayChangeDevices, mayChangeFiles } from './registry-access.ts';

describe('mayChangeDevices', () => {
  it('lets superadmins, admins and developers change the registry, not operators or infra', () => {
    expect(['sadmin', 'admin', 'developer', 'operator', 'infra'].map((s) => mayChangeDevices(s as never))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(mayChangeDevices(undefined)).toBe(false);
  });

  it('is the rule for beacon configurations, files and firmware too', () => {
    for (const s of ['sadmin', 'admin', 'developer', 'operator', 'infra'] as const) {
      expect([mayChangeBeacons(s), mayChangeFiles(s)]).toEqual([mayChangeDevices(s), mayChangeDevices(s)]);
    }
  });
});
