import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { EditAction, RowActions } from '@/components/ui/data-table/row-actions.tsx';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';

export interface OrgColumn<T> {
  header: string;
  cell(row: T): ReactNode;
}

interface OrgTableProps<T extends { name: string }> {
  /** 'site', 'kiosk', 'group': for labels. */
  what: string;
  /** Where a row's edit screen is: `/site/{name}`. */
  editPath(name: string): string;
  columns: readonly OrgColumn<T>[];
  rows: T[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  empty: { title: string; description: string; action?: ReactNode };
  /** Absent for readers: no delete. */
  onDelete?(row: T): void;
  deleting: string | null;
}

/** The list of sites, kiosks or groups: the spec's columns, then edit and delete (fleet §2). */
export function OrgTable<T extends { name: string }>(props: OrgTableProps<T>) {
  const { what, editPath, columns, rows, loading, failed, onRetry, empty, onDelete, deleting } = props;
  return (
    <DataTable
      columns={[...columns.map((column) => ({ header: column.header })), { header: 'Actions', w: 100 }]}
      items={rows}
      loading={loading}
      failed={failed}
      errorTitle={`The ${what}s could not be loaded.`}
      onRetry={onRetry}
      empty={<ListEmpty {...empty} />}
      minWidth={560}
      row={(row) => (
        <Table.Tr key={row.name}>
          {columns.map((column, i) => (
            <Table.Td key={column.header}>
              {i === 0 ? (
                <Text fw={500} size="sm">
                  {column.cell(row)}
                </Text>
              ) : (
                column.cell(row)
              )}
            </Table.Td>
          ))}
          <Table.Td>
            <RowActions>
              <EditAction
                tooltip={onDelete ? 'Edit' : 'Open'}
                label={`${onDelete ? 'Edit' : 'Open'} ${what} ${row.name}`}
                to={editPath(row.name)}
              />
              {onDelete && (
                <DeleteAction
                  tooltip="Delete"
                  label={`Delete ${what} ${row.name}`}
                  loading={deleting === row.name}
                  onClick={() => onDelete(row)}
                />
              )}
            </RowActions>
          </Table.Td>
        </Table.Tr>
      )}
    />
  );
}

/** A cell's text, or a dimmed dash when empty. */
export function Cell({ children }: { children: ReactNode }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <Text size="sm" c={empty ? 'dimmed' : undefined}>
      {empty ? '—' : children}
    </Text>
  );
}
