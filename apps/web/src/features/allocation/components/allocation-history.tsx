import { Badge, Loader, Paper, Table, Text, Title, Group } from '@mantine/core';
import type { Allocation } from '@fleet/shared/schemas/allocation';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import { useAllocations } from '../api/kiosk-manager.ts';

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
  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h4">
          Allocations
        </Title>
        {history.isFetching && !history.isPending && <Loader size="xs" aria-hidden />}
      </Group>
      <DataTable
        label="Allocation history"
        columns={[
          { header: 'When' },
          { header: 'User ID' },
          { header: 'From' },
          { header: 'Dataviews' },
          { header: 'By' },
          { header: 'Outcome' },
        ]}
        items={history.data?.data}
        loading={history.isPending}
        // A failed background refresh keeps the rows on screen; only no rows at all is the error.
        failed={!history.data}
        errorTitle="The allocation history could not be loaded."
        onRetry={() => void history.refetch()}
        empty={
          <ListEmpty
            title="Never allocated"
            description="Allocate Device hands it to a visitor; each allocation and its return appear here."
          />
        }
        skeletonRows={2}
        minWidth={640}
        framed={false}
        look={{ verticalSpacing: 'xs' }}
        row={(a) => (
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
        )}
      />
    </Paper>
  );
}
