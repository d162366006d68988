import type { ReactNode } from 'react';
import { Group, Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { DeviceSort, SortOrder } from '../utils/list-query.ts';

interface SortHeaderProps {
  column: DeviceSort;
  sort: DeviceSort;
  order: SortOrder;
  onSort(column: DeviceSort): void;
  children: ReactNode;
}

/** A column header that sorts the list by its column on the server; a second click reverses it. */
export function SortHeader({ column, sort, order, onSort, children }: SortHeaderProps) {
  const active = column === sort;
  const Icon = !active ? IconArrowsSort : order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        <Group gap={4} wrap="nowrap">
          {children}
          <Icon size={14} stroke={1.8} aria-hidden style={{ opacity: active ? 1 : 0.45 }} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The order a column starts in: newest, fullest or latest first; names and versions A to Z. */
export function firstOrder(column: DeviceSort): SortOrder {
  return column === 'name' || column === 'fw_version' || column === 'state' ? 'asc' : 'desc';
}
