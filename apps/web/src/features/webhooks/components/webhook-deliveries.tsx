import { Badge, Code, Stack, Table, Text } from '@mantine/core';
import type { WebhookDelivery } from '@fleet/shared/schemas/webhook';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { formatDateTime } from '@/lib/format/time.ts';
import { useWebhookDeliveries } from '../api/webhooks-api.ts';

const STATUS_COLORS = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

/** A webhook's delivery log: each event with its status and every attempt (code, time taken, error). */
export function WebhookDeliveries({ id }: { id: string }) {
  const log = useWebhookDeliveries(id);
  return (
    <DataTable
      label="Delivery log"
      columns={[{ header: 'Event' }, { header: 'Status' }, { header: 'Attempts' }, { header: 'Created' }]}
      items={log.data?.data}
      loading={log.isPending}
      failed={log.isError}
      errorTitle="The delivery log could not be loaded."
      onRetry={() => void log.refetch()}
      empty={<ListEmpty title="No deliveries yet" description="Events this webhook takes, and Send test, show here." />}
      minWidth={640}
      look={{ verticalSpacing: 'xs' }}
      row={(d) => <DeliveryRow key={d.id} delivery={d} />}
    />
  );
}

function DeliveryRow({ delivery: d }: { delivery: WebhookDelivery }) {
  return (
    <Table.Tr data-delivery={d.id}>
      <Table.Td>
        <Code>{d.event_type}</Code>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Badge color={STATUS_COLORS[d.status]} variant="light" style={{ overflow: 'visible' }}>
          {d.status}
        </Badge>
        {d.status === 'pending' && d.next_attempt_at && d.attempts > 0 && (
          <Text size="xs" c="dimmed">
            next try {formatDateTime(d.next_attempt_at)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {d.log.length === 0 && <Text size="sm">none yet</Text>}
          {d.log.map((a) => (
            <Text key={a.attempt} size="xs" style={{ fontVariantNumeric: 'tabular-nums' }}>
              #{a.attempt} {formatDateTime(a.at)} · {a.status_code ?? 'no answer'} · {a.duration_ms} ms
              {a.error ? ` · ${a.error}` : ''}
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(d.created_at)}</Table.Td>
    </Table.Tr>
  );
}
