import { Card, Table, Text, Title } from '@mantine/core';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import { timeOfDay } from './event-text.ts';
import { RssiBadge } from './rssi-badge.tsx';
import { TonePill } from './tone-pill.tsx';

const COLUMNS = ['Time', 'Patient', 'Room', 'Beacon MAC', 'RSSI', 'Medications', 'Status'] as const;

interface EventHistoryProps {
  events: BeaconEvent[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
}

/** The Event History table: the 100 most recent events, refreshed every 10 s (fleet §2, §7). */
export function EventHistory({ events, loading, failed, onRetry }: EventHistoryProps) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="event-history-title">
      <Title order={2} size="h4" id="event-history-title" mb="sm">
        Event History
      </Title>
      <DataTable
        columns={COLUMNS.map((header) => ({ header }))}
        items={events}
        loading={loading}
        // A failed refresh every 10 s keeps the events on screen; only no events at all is the error.
        failed={failed && !events}
        errorTitle="The beacon events could not be loaded."
        onRetry={onRetry}
        empty={
          <ListEmpty
            title="No beacon events yet"
            description="Events appear when a gateway sees a configured, active beacon."
          />
        }
        minWidth={820}
        framed={false}
        look={{ striped: true, highlightOnHover: true, verticalSpacing: 'xs' }}
        // The region scrolls sideways on a narrow screen: keyboard users reach it, and it has a name.
        scrollAreaProps={{ type: 'auto', viewportProps: { tabIndex: 0, 'aria-labelledby': 'event-history-title' } }}
        row={(e) => (
          <Table.Tr key={e.id}>
            <Table.Td title={new Date(e.timestamp).toLocaleString()}>{timeOfDay(e.timestamp)}</Table.Td>
            <Table.Td>{e.patient}</Table.Td>
            <Table.Td>{e.room ?? '–'}</Table.Td>
            <Table.Td ff="monospace">{e.beacon_mac}</Table.Td>
            <Table.Td>
              <RssiBadge rssi={e.rssi} />
            </Table.Td>
            <Table.Td>
              <Text size="sm">{e.medications.join(', ') || '–'}</Text>
            </Table.Td>
            <Table.Td>
              <TonePill tone={e.message_sent ? 'green' : 'gray'}>{e.message_sent ? 'Sent' : 'Pending'}</TonePill>
            </Table.Td>
          </Table.Tr>
        )}
      />
    </Card>
  );
}
