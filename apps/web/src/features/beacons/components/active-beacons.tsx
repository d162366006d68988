import { Card, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import { formatRelative } from '@/lib/format/time.ts';
import { RssiBadge } from './rssi-badge.tsx';

/** Beacons detected in the last 5 minutes, each with its latest sighting (fleet §4). */
export function ActiveBeacons({ beacons, now }: { beacons: BeaconEvent[]; now: number }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="active-beacons-title">
      <Title order={2} size="h4" id="active-beacons-title" mb="sm">
        Active Beacons
      </Title>
      <ScrollArea h={320} type="auto" viewportProps={{ tabIndex: 0, 'aria-labelledby': 'active-beacons-title' }}>
        {beacons.length === 0 ? (
          <Text c="dimmed" size="sm" py="md">
            No beacon detected in the last 5 minutes.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {beacons.map((b) => (
              <li key={b.beacon_mac} data-testid="active-beacon">
                <Group justify="space-between" wrap="nowrap">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate>
                      {b.patient}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {b.room ? `Room ${b.room}` : 'No room'} · seen {formatRelative(b.timestamp, now)}
                    </Text>
                  </div>
                  <RssiBadge rssi={b.rssi} />
                </Group>
              </li>
            ))}
          </Stack>
        )}
      </ScrollArea>
    </Card>
  );
}
