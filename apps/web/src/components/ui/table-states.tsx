import type { ReactNode } from 'react';
import { Alert, Button, EmptyState, Skeleton, Table } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useOnline } from '@/lib/use-online.ts';
import { OfflineWait } from './offline-wait.tsx';

/**
 * Placeholder rows while a list loads; the table is marked busy for assistive technology.
 * Offline, the read waits for the connection (query-defaults.ts), and the one row says so.
 */
export function TableSkeletonRows({ columns, rows = 4 }: { columns: number; rows?: number }) {
  const online = useOnline();
  if (!online)
    return (
      <TableMessageRow columns={columns}>
        <OfflineWait what="This list" />
      </TableMessageRow>
    );
  return Array.from({ length: rows }, (_, row) => (
    <Table.Tr key={row} aria-hidden>
      {Array.from({ length: columns }, (_, column) => (
        <Table.Td key={column}>
          <Skeleton height={14} radius="sm" width={column === 0 ? '60%' : '80%'} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** One full-width row holding a message: the empty and error states of a table. */
export function TableMessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={columns} p={0}>
        {children}
      </Table.Td>
    </Table.Tr>
  );
}

/** What an empty list says, with an optional way forward. */
export function ListEmpty({ title, description, action }: { title: string; description?: string; action?: ReactNode }) {
  return (
    <EmptyState title={title} description={description} py="xl" size="sm">
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}

/** A list that failed to load: says so and offers to try again. */
export function ListError({ title, onRetry }: { title: string; onRetry(): void }) {
  return (
    <Alert
      color="red"
      variant="light"
      m="md"
      title={title}
      icon={<IconAlertTriangle size={18} aria-hidden />}
      role="alert"
    >
      <Button size="xs" variant="default" mt="xs" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}
