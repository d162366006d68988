import type { ConsoleCommand } from '../utils/command-actions.ts';
import type { ReactNode } from 'react';
import { Checkbox, Paper, Table } from '@mantine/core';
import type { Device } from '@fleet/shared/schemas/device';
import { ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import type { DeviceSort, SortOrder } from '../utils/list-query.ts';
import { DeviceRow } from './device-row.tsx';
import { SortHeader } from './sort-header.tsx';

interface DeviceTableProps {
  landlord: boolean;
  devices: Device[] | undefined;
  /** First load: skeleton rows. */
  loading: boolean;
  /** A new page or filter is loading while the previous rows stay. */
  refreshing: boolean;
  failed: boolean;
  onRetry(): void;
  /** What an empty page says. */
  empty: ReactNode;
  now: number;
  sort: DeviceSort;
  order: SortOrder;
  onSort(column: DeviceSort): void;
  hrefOf(device: Device): string;
  /** Selection checkboxes (for the Multi-Device Action menu). */
  selectable: boolean;
  selected: ReadonlySet<string>;
  onSelect(name: string, selected: boolean): void;
  onSelectPage(selected: boolean): void;
  writable: boolean;
  onDelete(device: Device): void;
  deleting: string | null;
  onCommand(device: Device, action: ConsoleCommand): void;
  /** Devices with a command in flight. */
  commanding: ReadonlySet<string>;
}

/** The device table of core §2: Device ID, Groups, Entity (landlord), Version, Status, dates, Battery, Actions. */
export function DeviceTable(props: DeviceTableProps) {
  const { landlord, devices, loading, refreshing, failed, onRetry, empty, now, sort, order, onSort } = props;
  const { selectable, selected, onSelect, onSelectPage, writable, onDelete, deleting, hrefOf } = props;
  const { onCommand, commanding } = props;
  const columns = 8 + (landlord ? 1 : 0) + (selectable ? 1 : 0);
  const onPage = devices?.filter((d) => selected.has(d.name)).length ?? 0;
  const pageSize = devices?.length ?? 0;
  const header = { sort, order, onSort };

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
        selectable={selectable}
        selected={selected.has(device.name)}
        onSelect={onSelect}
        writable={writable}
        onDelete={onDelete}
        deleting={deleting === device.name}
        onCommand={onCommand}
        commanding={commanding.has(device.name)}
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
              {selectable && (
                <Table.Th w={44}>
                  <Checkbox
                    aria-label="Select all devices on this page"
                    checked={pageSize > 0 && onPage === pageSize}
                    indeterminate={onPage > 0 && onPage < pageSize}
                    disabled={pageSize === 0}
                    onChange={(event) => onSelectPage(event.currentTarget.checked)}
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
