import { Badge, Loader, Paper, Table, Text, Title, Group } from '@mantine/core';
import type { Allocation } from '@fleet/shared/schemas/allocation';
import { ListEmpty, ListError, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import { useAllocations } from '../api/kiosk-manager.ts';

const COLUMNS = 6;

function Outcome({ a }: { a: Allocation }) {
  if (a.outcome === 'open')
    return (
      <Badge color="green" variant="light">
        Allocated
      </Badge>
    );
  if (a.outcome === 'refused')
    return (
      <Badge color="red" variant="light">
        Refused by the device
      </Badge>
    );
  return <Text size="sm">Returned to {a.returned_to}</Text>;
}

/** The device's allocations (who allocated it, to whom, with which dataviews, when, and its return). */
export function AllocationHistory({ entity, name }: { entity: string; name: string }) {
  const history = useAllocations(entity, name);
  let body;
  if (history.isPending) body = <TableSkeletonRows columns={COLUMNS} rows={2} />;
  else if (!history.data)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListError title="The allocation history could not be loaded." onRetry={() => void history.refetch()} />
      </TableMessageRow>
    );
  else if (history.data.data.length === 0)
    body = (
      <TableMessageRow columns={COLUMNS}>
        <ListEmpty
          title="Never allocated"
          description="Allocate Device hands it to a visitor; each allocation and its return appear here."
        />
      </TableMessageRow>
    );
  else
    body = history.data.data.map((a) => (
      <Table.Tr key={a.id}>
        <Table.Td>{formatDateTime(a.allocated_at)}</Table.Td>
        <Table.Td>
          <Text fw={500} size="sm">
            {a.visitor}
          </Text>
        </Table.Td>
        <Table.Td>
          {a.kiosk} / {a.dispenser}
        </Table.Td>
        <Table.Td>{Object.keys(a.apps).join(', ') || '—'}</Table.Td>
        <Table.Td>{a.allocated_by}</Table.Td>
        <Table.Td>
          <Outcome a={a} />
          {a.returned_at && (
            <Text size="xs" c="dimmed">
              {formatDateTime(a.returned_at)}
            </Text>
          )}
        </Table.Td>
      </Table.Tr>
    ));
  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Allocations
        </Title>
        {history.isFetching && !history.isPending && <Loader size="xs" aria-hidden />}
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label="Allocation history" aria-busy={history.isPending}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>User ID</Table.Th>
              <Table.Th>From</Table.Th>
              <Table.Th>Dataviews</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Outcome</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
