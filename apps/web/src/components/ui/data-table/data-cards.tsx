import { useId, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import {
  ActionIcon,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Text,
  useMantineTheme,
  type MantineBreakpoint,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useOnline } from '@/lib/use-online.ts';
import { OfflineWait } from '../offline-wait.tsx';
import { ListError } from '../table-states.tsx';
import type { DataColumn, DataTableProps, ListState } from './data-table.tsx';
import type { Sorting } from './sort-header.tsx';

/** Whether the window is narrower than the theme's breakpoint `below` (default `sm`), known at the first render. */
export function useNarrow(below: MantineBreakpoint = 'sm'): boolean {
  const { breakpoints } = useMantineTheme();
  return useMediaQuery(`(width < ${breakpoints[below]})`, false, { getInitialValueInEffect: false });
}

type DataCardsProps<T, K extends string> = Omit<DataTableProps<T, K>, 'columns' | 'row' | 'cards'> & {
  columns: DataColumn<K>[];
  card(item: T): ReactNode;
  state: ListState;
};

/**
 * The narrow layout of a DataTable: the same states and controls, each item a card that fits the
 * width. The sortable headers become a "Sort by" choice and a button that reverses the order.
 */
export function DataCards<T, K extends string>(props: DataCardsProps<T, K>) {
  const {
    label,
    items,
    card,
    state,
    loading,
    refreshing = false,
    errorTitle,
    onRetry,
    empty,
    sorting,
    selectAll,
  } = props;
  let body: ReactNode;
  if (state === 'loading') body = <CardSkeletons text={props.loadingText} />;
  else if (state === 'failed')
    body = (
      <Paper withBorder radius="md">
        <ListError title={errorTitle} onRetry={onRetry} />
      </Paper>
    );
  else if (state === 'empty')
    body = (
      <Paper withBorder radius="md">
        {empty}
      </Paper>
    );
  else
    body = (
      <Stack component="ul" gap="xs" m={0} p={0} aria-label={label} style={{ listStyle: 'none' }}>
        {items!.map(card)}
      </Stack>
    );
  const sortable = props.columns.filter((c) => c.sort !== undefined);
  return (
    <Stack
      gap="xs"
      aria-busy={loading || refreshing}
      style={{ opacity: refreshing ? 0.7 : undefined, transition: 'opacity 150ms' }}
    >
      {(selectAll || (sorting && sortable.length > 0)) && (
        <Group justify="space-between" gap="xs" px={4}>
          {selectAll && (
            <Checkbox
              size="sm"
              label={selectAll.label}
              checked={selectAll.checked}
              indeterminate={selectAll.indeterminate}
              disabled={selectAll.disabled}
              onChange={(event) => selectAll.onChange(event.currentTarget.checked)}
            />
          )}
          {sorting && sortable.length > 0 && <SortChoice columns={sortable} sorting={sorting} />}
        </Group>
      )}
      {body}
    </Stack>
  );
}

function SortChoice<K extends string>({ columns, sorting }: { columns: DataColumn<K>[]; sorting: Sorting<K> }) {
  const id = useId();
  const { sort, order, onSort } = sorting;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" component="label" htmlFor={id}>
        Sort by
      </Text>
      <NativeSelect
        id={id}
        size="xs"
        value={sort}
        data={columns.map((c) => ({ value: c.sort!, label: c.header }))}
        onChange={(event) => onSort(event.currentTarget.value as K)}
      />
      <ActionIcon
        variant="default"
        size="input-xs"
        aria-label={order === 'asc' ? 'Ascending: sort descending' : 'Descending: sort ascending'}
        onClick={() => onSort(sort)}
      >
        {order === 'asc' ? <IconArrowUp size={16} aria-hidden /> : <IconArrowDown size={16} aria-hidden />}
      </ActionIcon>
    </Group>
  );
}

/** Placeholder cards while the list loads; offline, the read waits for the connection and says so. */
function CardSkeletons({ text }: { text: string | undefined }) {
  const online = useOnline();
  if (!online)
    return (
      <Paper withBorder radius="md">
        <OfflineWait what="This list" />
      </Paper>
    );
  return (
    <Stack gap="xs">
      {text && (
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      )}
      {[0, 1, 2].map((i) => (
        <Paper key={i} withBorder radius="md" p="sm" aria-hidden>
          <Skeleton height={14} width="45%" radius="sm" />
          <Skeleton height={12} width="70%" radius="sm" mt="sm" />
        </Paper>
      ))}
    </Stack>
  );
}

type DataCardProps = { selected?: boolean; children: ReactNode } & Omit<ComponentPropsWithoutRef<'li'>, 'children'>;

/** One item of the narrow layout, tinted while selected. */
export function DataCard({ selected, children, ...rest }: DataCardProps) {
  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
      {...rest}
    >
      {children}
    </Paper>
  );
}
