// Renders one device row on the server (no DOM) for the row's tests and the list route's.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider, Table } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import type { Device } from '@fleet/shared/schemas/device';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import { DeviceRow, type DeviceRowProps } from './device-row.tsx';

export const NOW = Date.parse('2026-11-22T12:00:00Z');
export const DEVICE = aDevice({ updated_at: new Date(NOW - 60_000).toISOString() });

export function renderDeviceRow(device: Device, patch: Partial<DeviceRowProps> = {}): string {
  const props: DeviceRowProps = {
    device,
    landlord: false,
    now: NOW,
    href: `/device/${device.name}`,
    selected: false,
    onSelect: () => undefined,
    writable: false,
    onDelete: () => undefined,
    deleting: false,
    busy: false,
    extras: {},
    ...patch,
  };
  const row = createElement(Table, null, createElement(Table.Tbody, null, createElement(DeviceRow, props)));
  return renderToStaticMarkup(createElement(MemoryRouter, null, createElement(MantineProvider, null, row)));
}
