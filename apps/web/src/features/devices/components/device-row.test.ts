import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider, Table } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import type { Device } from '@fleet/shared/schemas/device';
import { describe, expect, it } from 'vitest';
import { aDevice } from '../test-fixtures.ts';
import { DeviceRow, type DeviceRowProps } from './device-row.tsx';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const DEVICE = aDevice({ updated_at: new Date(NOW - 60_000).toISOString() });

function render(device: Device, patch: Partial<DeviceRowProps> = {}): string {
  const props: DeviceRowProps = {
    device,
    landlord: false,
    now: NOW,
    href: `/device/${device.name}`,
    selectable: true,
    selected: false,
    onSelect: () => undefined,
    writable: false,
    onDelete: () => undefined,
    deleting: false,
    onCommand: () => undefined,
    commanding: false,
    ...patch,
  };
  const row = createElement(Table, null, createElement(Table.Tbody, null, createElement(DeviceRow, props)));
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(MantineProvider, null, row)));
}

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
    const busy = render(DEVICE, { commanding: true });
    expect(busy).toMatch(
      /aria-label="Actions for device 240ac40a2e48"[^>]*aria-busy="true"|aria-busy="true"[^>]*aria-label="Actions for device 240ac40a2e48"/,
    );
  });

  it('offers Provision, says Provisioning... while the device counts as provisioning, and disables it when unresponsive', () => {
    expect(render(DEVICE)).toContain(`aria-label="Provision device ${DEVICE.name}"`);
    const busy = render({ ...DEVICE, current_provision: '11111111-1111-4111-8111-111111111111' });
    expect(busy).toContain('Provisioning...');
    expect(render({ ...DEVICE, state: { current: 'PROVISIONING' } })).toContain('Provisioning...');
    const silent = render({ ...DEVICE, updated_at: new Date(NOW - 21 * 60_000).toISOString() });
    expect(silent).toMatch(/<button[^>]*disabled[^>]*aria-label="Provision device/);
  });
});
