import type { ReactNode } from 'react';
import {
  Checkbox,
  Paper,
  Table,
  Text,
  VisuallyHidden,
  type MantineBreakpoint,
  type ScrollAreaProps,
  type TableProps,
  useMatches,
} from '@mantine/core';
import { ListError, TableMessageRow, TableSkeletonRows } from '../table-states.tsx';
import { DataCards, useNarrow } from './data-cards.tsx';
import { SortHeader, type Sorting } from './sort-header.tsx';

/** A column's header. */
export interface DataColumn<K extends string = string> {
  /** Its title; also what the phone layout's sort menu calls it. */
  header: string;
  /** The key the list sorts by when this header is clicked (with the table's `sorting`). */
  sort?: K;
  w?: number;
  ta?: 'right';
  /** Heard by screen readers only: a column of icons or radios needs no visible title. */
  hidden?: boolean;
  /** Shown from this width on: a lower-priority column the rows fold into another below it. */
  visibleFrom?: MantineBreakpoint;
}

/** The header's checkbox that selects every row on the page (each row draws its own). */
export interface SelectAll {
  label: string;
  checked: boolean;
  indeterminate: boolean;
  disabled?: boolean;
  onChange(selected: boolean): void;
  w?: number;
}

export interface DataTableProps<T, K extends string = string> {
  /** The table's accessible name. */
  label?: string;
  /** The columns after the selection checkbox; `false` drops one (a landlord's Entity, say). */
  columns: ReadonlyArray<DataColumn<K> | false>;
  /** The rows; undefined before the first answer or after a failure. */
  items: readonly T[] | undefined;
  /** One row: a keyed `<Table.Tr>`. */
  row(item: T): ReactNode;
  /** The first load: skeleton rows while there is nothing to show. */
  loading: boolean;
  /** Another page or filter is on its way while the rows on screen stay (dimmed). */
  refreshing?: boolean;
  failed: boolean;
  /** What the error state says, e.g. 'The sites could not be loaded.'; it offers Try again. */
  errorTitle: string;
  onRetry(): void;
  /** What an empty list says: what will appear here and, where there is one, the way to add it. */
  empty: ReactNode;
  /** A line shown above the skeleton rows, where the spec words the loading state. */
  loadingText?: string;
  skeletonRows?: number;
  sorting?: Sorting<K>;
  selectAll?: SelectAll;
  /**
   * Below this width the table scrolls sideways inside its frame rather than squeezing; per
   * breakpoint when columns show only from a width (`visibleFrom`).
   */
  minWidth: number | ({ base: number } & Partial<Record<MantineBreakpoint, number>>);
  maxHeight?: number;
  /** In a bordered paper of its own (a list screen); false inside a card or dialog that has one. */
  framed?: boolean;
  /** The table's look: spacing, stripes, hover. */
  look?: Pick<TableProps, 'verticalSpacing' | 'horizontalSpacing' | 'striped' | 'highlightOnHover' | 'fz'>;
  scrollAreaProps?: ScrollAreaProps;
  /** Below `below` (default `sm`) each item shows as the card `card` draws (a keyed DataCard), not as a row. */
  cards?: { below?: MantineBreakpoint; card(item: T): ReactNode };
}

/** Which of its four states a list is in. */
export type ListState = 'loading' | 'failed' | 'empty' | 'rows';

/** Loading until the first rows arrive; failed (or never answered) without rows to show; then empty or rows. */
export function listState(items: readonly unknown[] | undefined, loading: boolean, failed: boolean): ListState {
  if (loading && !items) return 'loading';
  if (failed || !items) return 'failed';
  return items.length === 0 ? 'empty' : 'rows';
}

const DEFAULT_LOOK: DataTableProps<unknown>['look'] = {
  verticalSpacing: 'sm',
  horizontalSpacing: 'md',
  highlightOnHover: true,
};

/**
 * The console's table: its frame and scroll container, the header (sortable columns, select-all),
 * and the loading, empty and error (with Try again) states; each feature draws only its rows.
 * With `cards`, a narrow screen gets a list of cards instead, so nothing scrolls sideways.
 */
export function DataTable<T, K extends string = string>(props: DataTableProps<T, K>) {
  const { label, items, row, loading, refreshing = false, failed, errorTitle, onRetry, empty, sorting } = props;
  const { selectAll, maxHeight, framed = true, look = DEFAULT_LOOK, cards } = props;
  const narrow = useNarrow(cards?.below);
  const minWidth = useMatches(typeof props.minWidth === 'number' ? { base: props.minWidth } : props.minWidth);
  const columns = props.columns.filter((c): c is DataColumn<K> => c !== false);
  const width = columns.length + (selectAll ? 1 : 0);
  const state = listState(items, loading, failed);

  if (cards && narrow) return <DataCards {...props} columns={columns} card={cards.card} state={state} />;

  let body: ReactNode;
  if (state === 'loading')
    body = (
      <>
        {props.loadingText && (
          <TableMessageRow columns={width}>
            <Text size="sm" c="dimmed" p="sm">
              {props.loadingText}
            </Text>
          </TableMessageRow>
        )}
        <TableSkeletonRows columns={width} rows={props.skeletonRows} />
      </>
    );
  else if (state === 'failed')
    body = (
      <TableMessageRow columns={width}>
        <ListError title={errorTitle} onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (state === 'empty') body = <TableMessageRow columns={width}>{empty}</TableMessageRow>;
  else body = items!.map(row);

  const table = (
    <Table.ScrollContainer minWidth={minWidth} maxHeight={maxHeight} scrollAreaProps={props.scrollAreaProps}>
      <Table
        {...look}
        aria-label={label}
        aria-busy={loading || refreshing}
        style={{ opacity: refreshing ? 0.7 : undefined, transition: 'opacity 150ms' }}
      >
        <Table.Thead>
          <Table.Tr>
            {selectAll && (
              <Table.Th w={selectAll.w ?? 44}>
                <Checkbox
                  aria-label={selectAll.label}
                  checked={selectAll.checked}
                  indeterminate={selectAll.indeterminate}
                  disabled={selectAll.disabled}
                  onChange={(event) => selectAll.onChange(event.currentTarget.checked)}
                />
              </Table.Th>
            )}
            {columns.map((column) => (
              <HeaderCell key={column.header} column={column} sorting={sorting} />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return framed ? (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      {table}
    </Paper>
  ) : (
    table
  );
}

function HeaderCell<K extends string>({ column, sorting }: { column: DataColumn<K>; sorting?: Sorting<K> }) {
  if (column.sort !== undefined && sorting)
    return (
      <SortHeader column={column.sort} sorting={sorting} w={column.w} visibleFrom={column.visibleFrom}>
        {column.header}
      </SortHeader>
    );
  return (
    <Table.Th w={column.w} ta={column.ta} visibleFrom={column.visibleFrom}>
      {column.hidden ? <VisuallyHidden>{column.header}</VisuallyHidden> : column.header}
    </Table.Th>
  );
}
