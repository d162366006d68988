// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '@fleet/shared/schemas/device';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import { renderUi, signInAs } from '@/test/render.tsx';
import { DeviceTable } from './device-table.tsx';
import { matchMediaAnswering } from '@/test/match-media.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const AWAKE = aDevice({ name: 'aaaa00000001', battery: 64, updated_at: new Date(NOW - 60_000).toISOString() });
const SILENT = aDevice({
  name: 'aaaa00000002',
  battery: 12,
  state: { current: 'IDLE' },
  online: false,
  updated_at: new Date(NOW - 30 * 60_000).toISOString(),
});

/** A window narrower than the `sm` breakpoint (a phone): every media query matches. */
function phoneWidth() {
  vi.stubGlobal('matchMedia', matchMediaAnswering(true));
}

function renderDevices(devices: Device[] | undefined, selected: string[] = []) {
  const onSelect = vi.fn();
  const onSelectPage = vi.fn();
  const rendered = renderUi(
    <DeviceTable
      landlord={false}
      now={NOW}
      list={{ devices, loading: false, refreshing: false, failed: !devices, onRetry: vi.fn(), empty: 'No devices yet' }}
      sorting={{ sort: 'name', order: 'asc', onSort: vi.fn() }}
      selection={{ selected: new Set(selected), onSelect, onSelectPage }}
      rows={{
        hrefOf: (d) => `/device/${d.name}`,
        writable: true,
        onDelete: vi.fn(),
        deleting: null,
        busy: new Set(),
        actions: (d) => <button type="button">Provision device {d.name}</button>,
      }}
    />,
  );
  return { ...rendered, onSelect, onSelectPage };
}

/** The window's width: the table's lower-priority columns show from a width (Mantine's media classes). */
function windowWidth(width: number) {
  (window as unknown as { happyDOM: { setViewport(v: { width: number }): void } }).happyDOM.setViewport({ width });
}

const visibleHeaders = () =>
  within(screen.getByRole('table', { name: 'Devices' }))
    .getAllByRole('columnheader')
    .map((h) => h.textContent);

describe('DeviceTable', () => {
  afterEach(() => windowWidth(1024));

  it('is a table with the spec’s columns on a wide screen', () => {
    windowWidth(1280);
    renderDevices([AWAKE]);
    const headers = within(screen.getByRole('table', { name: 'Devices' })).getAllByRole('columnheader');
    expect(headers.map((h) => h.textContent)).toEqual([
      '',
      'Device ID',
      'Groups',
      'Version',
      'Status',
      'Created Date',
      'Last Updated',
      'Battery',
      'Actions',
    ]);
  });

  it('fits a window between the phone and the wide layout: lower-priority columns fold into the row', () => {
    windowWidth(800);
    renderDevices([{ ...AWAKE, group: 'lobby' }, SILENT]);
    expect(visibleHeaders()).toEqual(['', 'Device ID', 'Status', 'Battery', 'Actions']);
    const row = within(screen.getByRole('row', { name: /aaaa00000001/ }));
    expect(row.getByText('Group lobby · v1.2.0 · Created 01.11.2026')).toBeTruthy();
    expect(row.getByText('Updated 1 minute ago')).toBeTruthy();
    // The unresponsive mark stays in view, under the status.
    const silentStatus = within(screen.getByRole('row', { name: /aaaa00000002/ })).getAllByRole('cell')[2]!;
    expect(within(silentStatus).getByText('Unresponsive')).toBeTruthy();
  });

  describe('on a phone', () => {
    it('shows each device as a card with its id, status, battery and actions', async () => {
      signInAs({ subtype: 'admin', permissions: ['all'] });
      phoneWidth();
      const { user } = renderDevices([AWAKE, SILENT]);
      expect(screen.queryByRole('table')).toBeNull();
      const card = screen.getByRole('listitem', { name: `Device ${AWAKE.name}` });
      const inCard = within(card);
      expect(inCard.getByRole('link', { name: AWAKE.name }).getAttribute('href')).toBe(`/device/${AWAKE.name}`);
      expect(card.textContent).toContain('ALLOCATED');
      expect(card.textContent).toContain('64%');
      expect(inCard.getByRole('button', { name: `Provision device ${AWAKE.name}` })).toBeTruthy();
      await user.click(inCard.getByRole('button', { name: `Actions for device ${AWAKE.name}` }));
      expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
        'Edit',
        'Allocate',
        'Return Device',
        'Delete',
      ]);
    });

    it('marks a device with no sign of life Unresponsive on its card', () => {
      phoneWidth();
      renderDevices([AWAKE, SILENT]);
      const card = screen.getByRole('listitem', { name: `Device ${SILENT.name}` });
      expect(card.getAttribute('data-unresponsive')).toBe('true');
      expect(card.textContent).toContain('Unresponsive');
      expect(card.textContent).toContain('12%');
    });

    it('selects a device, or the whole page, from the cards', async () => {
      phoneWidth();
      const { user, onSelect, onSelectPage } = renderDevices([AWAKE, SILENT], [SILENT.name]);
      await user.click(screen.getByRole('checkbox', { name: `Select device ${AWAKE.name}` }));
      expect(onSelect).toHaveBeenCalledWith(AWAKE.name, true);
      const all = screen.getByRole('checkbox', { name: 'Select all devices on this page' });
      expect(all.getAttribute('data-indeterminate')).toBe('true');
      await user.click(all);
      expect(onSelectPage).toHaveBeenCalledWith(true);
    });

    it('says the devices could not be loaded, with Try again', () => {
      phoneWidth();
      renderDevices(undefined);
      expect(screen.getByRole('alert').textContent).toContain('The devices could not be loaded.');
    });
  });
});
