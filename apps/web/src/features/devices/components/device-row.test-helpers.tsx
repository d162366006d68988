// Test helper (not shipped): one device row in a table on the DOM, for the row's tests and the
// list route's.
import { Table } from '@mantine/core';
import { vi } from 'vitest';
import type { Device } from '@fleet/shared/schemas/device';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import { renderUi } from '@/test/render.tsx';
import { DeviceRow, type DeviceRowProps } from './device-row.tsx';

export const NOW = Date.parse('2026-11-22T12:00:00Z');
export const DEVICE = aDevice({ updated_at: new Date(NOW - 60_000).toISOString() });

/** Renders `device`'s row (read-only, no checkbox unless `patch` says otherwise); the props' callbacks are spies. */
export function renderDeviceRow(device: Device, patch: Partial<DeviceRowProps> = {}) {
  const props: DeviceRowProps = {
    device,
    landlord: false,
    now: NOW,
    href: `/device/${device.name}`,
    selected: undefined,
    onSelect: vi.fn(),
    writable: false,
    onDelete: vi.fn(),
    deleting: false,
    busy: false,
    extras: {},
    ...patch,
  };
  const rendered = renderUi(
    <Table>
      <Table.Tbody>
        <DeviceRow {...props} />
      </Table.Tbody>
    </Table>,
  );
  const row = rendered.container.querySelector('tr');
  if (!row) throw new Error('no row rendered');
  return { ...rendered, props, row };
}
