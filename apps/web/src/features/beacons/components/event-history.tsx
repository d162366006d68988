import { Card, ScrollArea, Table, Text, Title } from '@mantine/core';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import { ListEmpty, TableMessageRow, TableSkeletonRows } from '@/components/ui/table-states.tsx';
import { timeOfDay } from './event-text.ts';
import { RssiBadge } from './rssi-badge.tsx';
import { TonePill } from './tone-pill.tsx';

const COLUMNS = ['Time', 'Patient', 'Room', 'Beacon MAC', 'RSSI', 'Medications', 'Status'] as const;

/** The Event History table: the 100 most recent events, refreshed every 10 s (fleet §2, §7). */
export function EventHistory({ events, loading }: { events: BeaconEvent[] | undefined; loading: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="event-history-title">
      <Title order={2} size="h4" id="event-history-title" mb="sm">
        Event History
      </Title>
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, 'aria-labelledby': 'event-history-title' }}>
        <Table striped highlightOnHover verticalSpacing="xs" miw={820} aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((c) => (
                <Table.Th key={c}>{c}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading && !events && <TableSkeletonRows columns={COLUMNS.length} />}
            {events?.length === 0 && (
              <TableMessageRow columns={COLUMNS.length}>
                <ListEmpty
                  title="No beacon events yet"
                  description="Events appear when a gateway sees a configured, active beacon."
                />
              </TableMessageRow>
            )}
            {events?.map((e) => (
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
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Card>
  );
}
