import { describe, expect, it } from 'vitest';
import { DEVICE, NOW, renderDeviceRow as render } from './device-row.test-helpers.ts';

describe('DeviceRow', () => {
  it('marks a sleeping responsive device Asleep, telling screen readers that commands wait', () => {
    const html = render({ ...DEVICE, online: false });
    expect(html).toContain('Asleep');
    expect(html).toContain(': commands wait until it wakes');
    expect(render(DEVICE)).not.toContain('Asleep');
  });

  it('marks an unresponsive device Unresponsive, not Asleep', () => {
    const html = render({ ...DEVICE, online: false, updated_at: new Date(NOW - 30 * 60_000).toISOString() });
    expect(html).toContain('Unresponsive');
    expect(html).not.toContain('Asleep');
    expect(html).toContain('data-unresponsive="true"');
  });

  it('keeps the row menu target named for its device, busy while a command is in flight', () => {
    expect(render(DEVICE)).toContain('aria-label="Actions for device 240ac40a2e48"');
    expect(render(DEVICE)).not.toContain('aria-busy="true"');
    const busy = render(DEVICE, { busy: true });
    expect(busy).toMatch(
      /aria-label="Actions for device 240ac40a2e48"[^>]*aria-busy="true"|aria-busy="true"[^>]*aria-label="Actions for device 240ac40a2e48"/,
    );
  });
});
