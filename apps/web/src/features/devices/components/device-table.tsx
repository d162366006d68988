import { useMemo, type ReactNode } from 'react';
import type { Device } from '@fleet/shared/schemas/device';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import type { DeviceSort, SortOrder } from '../utils/list-query.ts';
import { DeviceCard } from './device-card.tsx';
import { FULL, MEDIUM } from './device-columns.ts';
import { DeviceRow, type DeviceRowExtras, type DeviceRowProps } from './device-row.tsx';

/** The rows to show and how they are coming along. */
export interface DeviceTableList {
  devices: Device[] | undefined;
  /** First load: skeleton rows. */
  loading: boolean;
  /** A new page or filter is loading while the previous rows stay. */
  refreshing: boolean;
  failed: boolean;
  onRetry(): void;
  /** What an empty page says. */
  empty: ReactNode;
}

/** The sortable headers: the column and direction on screen, and the change asked for. */
export interface DeviceTableSorting {
  sort: DeviceSort;
  order: SortOrder;
  onSort(column: DeviceSort): void;
}

/** Selection checkboxes (for the Multi-Device Action menu). */
export interface DeviceTableSelection {
  selected: ReadonlySet<string>;
  onSelect(name: string, selected: boolean): void;
  onSelectPage(selected: boolean): void;
}

/** What each row offers: its link, the registry's Edit/Delete, and other features' parts. */
export interface DeviceTableRows extends DeviceRowExtras {
  hrefOf(device: Device): string;
  /** May change the registry: Edit and Delete, otherwise View. */
  writable: boolean;
  onDelete(device: Device): void;
  /** The device being deleted, if any. */
  deleting: string | null;
  /** Devices with an action (a command) in flight. */
  busy: ReadonlySet<string>;
}

interface DeviceTableProps {
  landlord: boolean;
  now: number;
  list: DeviceTableList;
  sorting: DeviceTableSorting;
  /** Absent: no checkboxes. */
  selection?: DeviceTableSelection;
  rows: DeviceTableRows;
}

/**
 * The device table of core §2: Device ID, Groups, Entity (landlord), Version, Status, dates, Battery,
 * Actions. Below the `sm` width each device is a card showing its id, status, battery and actions.
 */
export function DeviceTable({ landlord, now, list, sorting, selection, rows }: DeviceTableProps) {
  const { devices, loading, refreshing, failed, onRetry, empty } = list;
  const { hrefOf, writable, onDelete, deleting, busy, actions, menuItems } = rows;
  // One extras object while the route's parts stay the same, so memoised rows skip re-rendering.
  const extras = useMemo(() => ({ actions, menuItems }), [actions, menuItems]);
  const onPage = devices?.filter((d) => selection?.selected.has(d.name)).length ?? 0;
  const pageSize = devices?.length ?? 0;
  const propsOf = (device: Device): DeviceRowProps & { key: string } => ({
    key: device.name,
    device,
    landlord,
    now,
    href: hrefOf(device),
    selected: selection?.selected.has(device.name),
    onSelect: selection?.onSelect ?? noSelect,
    writable,
    onDelete,
    deleting: deleting === device.name,
    busy: busy.has(device.name),
    extras,
  });

  return (
    <DataTable
      label="Devices"
      columns={[
        { header: 'Device ID', sort: 'name' },
        { header: 'Groups', sort: 'group', visibleFrom: FULL },
        landlord && { header: 'Entity', sort: 'entity', visibleFrom: MEDIUM },
        { header: 'Version', sort: 'fw_version', visibleFrom: FULL },
        { header: 'Status', sort: 'state' },
        { header: 'Created Date', sort: 'created_at', visibleFrom: FULL },
        { header: 'Last Updated', sort: 'updated_at', visibleFrom: MEDIUM },
        { header: 'Battery', sort: 'battery' },
        { header: 'Actions', w: 80 },
      ]}
      items={devices}
      row={(device) => {
        const { key, ...props } = propsOf(device);
        return <DeviceRow key={key} {...props} />;
      }}
      cards={{
        card: (device) => {
          const { key, ...props } = propsOf(device);
          return <DeviceCard key={key} {...props} />;
        },
      }}
      loading={loading}
      refreshing={refreshing}
      failed={failed}
      errorTitle={failed ? 'The devices could not be loaded.' : 'No devices to show.'}
      onRetry={onRetry}
      empty={empty}
      skeletonRows={6}
      sorting={sorting}
      selectAll={
        selection && {
          label: 'Select all devices on this page',
          checked: pageSize > 0 && onPage === pageSize,
          indeterminate: onPage > 0 && onPage < pageSize,
          disabled: pageSize === 0,
          onChange: selection.onSelectPage,
        }
      }
      minWidth={{ base: 480, [MEDIUM]: landlord ? 720 : 640, [FULL]: landlord ? 960 : 900 }}
      look={{ verticalSpacing: 'sm', horizontalSpacing: 'xs', highlightOnHover: true }}
    />
  );
}

const noSelect = () => undefined;
