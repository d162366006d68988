import type { ReactNode } from 'react';
import { Group, Table, UnstyledButton, type MantineBreakpoint } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';

export type SortOrder = 'asc' | 'desc';

/** A sorted list: the column and direction on screen, and the change asked for (a second click reverses). */
export interface Sorting<K extends string> {
  sort: K;
  order: SortOrder;
  onSort(column: K): void;
}

interface SortHeaderProps<K extends string> {
  column: K;
  sorting: Sorting<K>;
  w?: number;
  /** Shown from this width on (a lower-priority column). */
  visibleFrom?: MantineBreakpoint;
  children: ReactNode;
}

/** A column header that sorts the list by its column; the arrow shows the direction, dimmed when another column sorts. */
export function SortHeader<K extends string>({ column, sorting, w, visibleFrom, children }: SortHeaderProps<K>) {
  const { sort, order, onSort } = sorting;
  const active = column === sort;
  const Icon = !active ? IconArrowsSort : order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th
      w={w}
      visibleFrom={visibleFrom}
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <UnstyledButton onClick={() => onSort(column)} fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        <Group gap={4} wrap="nowrap">
          {children}
          <Icon size={14} stroke={1.8} aria-hidden style={{ opacity: active ? 1 : 0.45 }} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
