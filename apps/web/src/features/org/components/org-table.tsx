import type { ReactNode } from 'react';
import { ActionIcon, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DeleteAction } from '@/components/ui/delete-action.tsx';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';

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
  const width = columns.length + 1;
  let body: ReactNode;
  if (loading) body = <TableSkeletonRows columns={width} />;
  else if (failed || !rows)
    body = (
      <TableMessageRow columns={width}>
        <ListError title={`The ${what}s could not be loaded.`} onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (rows.length === 0)
    body = (
      <TableMessageRow columns={width}>
        <ListEmpty {...empty} />
      </TableMessageRow>
    );
  else
    body = rows.map((row) => (
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
          <Group gap={4} wrap="nowrap">
            <Tooltip label={onDelete ? 'Edit' : 'Open'} withArrow>
              <ActionIcon
                component={Link}
                to={editPath(row.name)}
                variant="subtle"
                aria-label={`${onDelete ? 'Edit' : 'Open'} ${what} ${row.name}`}
              >
                <IconPencil size={18} stroke={1.6} aria-hidden />
              </ActionIcon>
            </Tooltip>
            {onDelete && (
              <DeleteAction
                tooltip="Delete"
                label={`Delete ${what} ${row.name}`}
                loading={deleting === row.name}
                onClick={() => onDelete(row)}
              />
            )}
          </Group>
        </Table.Td>
      </Table.Tr>
    ));

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
              <Table.Th w={100}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
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
