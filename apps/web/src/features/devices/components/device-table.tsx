import { useMemo, type ReactNode } from 'react';
import { Checkbox, Paper, Table } from '@mantine/core';
import type { Device } from '@fleet/shared/schemas/device';
import { ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import type { DeviceSort, SortOrder } from '../utils/list-query.ts';
import { DeviceRow, type DeviceRowExtras } from './device-row.tsx';
import { SortHeader } from './sort-header.tsx';

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

/** The device table of core §2: Device ID, Groups, Entity (landlord), Version, Status, dates, Battery, Actions. */
export function DeviceTable({ landlord, now, list, sorting: header, selection, rows }: DeviceTableProps) {
  const { devices, loading, refreshing, failed, onRetry, empty } = list;
  const { hrefOf, writable, onDelete, deleting, busy, actions, menuItems } = rows;
  // One extras object while the route's parts stay the same, so memoised rows skip re-rendering.
  const extras = useMemo(() => ({ actions, menuItems }), [actions, menuItems]);
  const columns = 8 + (landlord ? 1 : 0) + (selection ? 1 : 0);
  const onPage = devices?.filter((d) => selection?.selected.has(d.name)).length ?? 0;
  const pageSize = devices?.length ?? 0;

  let body;
  if (loading) body = <TableSkeletonRows columns={columns} rows={6} />;
  else if (!devices)
    body = (
      <TableMessageRow columns={columns}>
        <ListError title={failed ? 'The devices could not be loaded.' : 'No devices to show.'} onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (devices.length === 0) body = <TableMessageRow columns={columns}>{empty}</TableMessageRow>;
  else
    body = devices.map((device) => (
      <DeviceRow
        key={device.name}
        device={device}
        landlord={landlord}
        now={now}
        href={hrefOf(device)}
        selected={selection?.selected.has(device.name)}
        onSelect={selection?.onSelect ?? noSelect}
        writable={writable}
        onDelete={onDelete}
        deleting={deleting === device.name}
        busy={busy.has(device.name)}
        extras={extras}
      />
    ));

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={landlord ? 960 : 900}>
        <Table
          verticalSpacing="sm"
          horizontalSpacing="xs"
          highlightOnHover
          aria-busy={loading || refreshing}
          aria-label="Devices"
          style={{ opacity: refreshing ? 0.7 : 1, transition: 'opacity 150ms' }}
        >
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={44}>
                  <Checkbox
                    aria-label="Select all devices on this page"
                    checked={pageSize > 0 && onPage === pageSize}
                    indeterminate={onPage > 0 && onPage < pageSize}
                    disabled={pageSize === 0}
                    onChange={(event) => selection.onSelectPage(event.currentTarget.checked)}
                  />
                </Table.Th>
              )}
              <SortHeader column="name" {...header}>
                Device ID
              </SortHeader>
              <Table.Th>Groups</Table.Th>
              {landlord && <Table.Th>Entity</Table.Th>}
              <SortHeader column="fw_version" {...header}>
                Version
              </SortHeader>
              <SortHeader column="state" {...header}>
                Status
              </SortHeader>
              <SortHeader column="created_at" {...header}>
                Created Date
              </SortHeader>
              <SortHeader column="updated_at" {...header}>
                Last Updated
              </SortHeader>
              <SortHeader column="battery" {...header}>
                Battery
              </SortHeader>
              <Table.Th w={80}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

const noSelect = () => undefined;
