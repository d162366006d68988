import { describe, expect, it } from 'vitest';
import { deviceListHref, outcomeText } from './health-links.ts';

describe('where a fleet health figure leads', () => {
  it("opens an entity's device list with the filter of the figure", () => {
    expect(deviceListHref(false, undefined, { battery: 'Low' })).toBe('/device?battery=Low');
    expect(deviceListHref(false, 'acme', { fw_version: '1.2.0 beta', type: 'CC2' })).toBe(
      '/device?fw_version=1.2.0+beta&type=CC2',
    );
    expect(deviceListHref(false, undefined, {})).toBe('/device');
  });

  it("opens the superadmin's list narrowed to the chosen entity, or across entities", () => {
    expect(deviceListHref(true, 'acme', { seen: 'never' })).toBe('/sdevices?entity=acme&seen=never');
    expect(deviceListHref(true, undefined, { status: 'ERROR' })).toBe('/sdevices?status=ERROR');
  });

  it('names outcomes in words', () => {
    expect(outcomeText('timed_out')).toBe('timed out');
    expect(outcomeText('provision_completed')).toBe('completed');
  });
});
