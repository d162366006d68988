import type { ReactNode } from 'react';
import { Table, VisuallyHidden } from '@mantine/core';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';

interface UploadTableProps<T> {
  caption: string;
  headers: string[];
  rows: T[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  empty: { title: string; description: string };
  row(item: T): ReactNode;
}

/** The list of a files or firmware dialog: loading rows, the error with a retry, an empty state that says what to do. */
export function UploadTable<T>({ caption, headers, rows, loading, failed, onRetry, empty, row }: UploadTableProps<T>) {
  const columns = headers.length;
  let body: ReactNode;
  if (loading) body = <TableSkeletonRows columns={columns} rows={2} />;
  else if (failed)
    body = (
      <TableMessageRow columns={columns}>
        <ListError title={`Could not load the ${caption.toLowerCase()}`} onRetry={onRetry} />
      </TableMessageRow>
    );
  else if (!rows || rows.length === 0)
    body = (
      <TableMessageRow columns={columns}>
        <ListEmpty title={empty.title} description={empty.description} />
      </TableMessageRow>
    );
  else body = rows.map(row);
  return (
    <Table.ScrollContainer minWidth={560} maxHeight={320}>
      <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((h) => (
              <Table.Th key={h} ta={h === '' ? 'right' : undefined}>
                {h === '' ? <VisuallyHidden>Actions</VisuallyHidden> : h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
