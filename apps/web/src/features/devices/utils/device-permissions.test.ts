import { describe, expect, it } from 'vitest';
import { canChangeDevices } from './device-permissions.ts';

describe('canChangeDevices', () => {
  it('lets superadmins, admins and developers change the registry, not operators or infra', () => {
    expect(['sadmin', 'admin', 'developer', 'operator', 'infra'].map((s) => canChangeDevices(s as never))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(canChangeDevices(undefined)).toBe(false);
  });
});
