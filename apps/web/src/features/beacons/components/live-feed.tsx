import { Card, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import { EVENT_COLORS, EVENT_LABELS, timeOfDay } from './event-text.ts';
import { RssiBadge } from './rssi-badge.tsx';
import { TonePill } from './tone-pill.tsx';

/** The Live Activity Feed: events as the socket brings them, newest first, at most 50. */
export function LiveFeed({ events, connected }: { events: BeaconEvent[]; connected: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="live-feed-title">
      <Title order={2} size="h4" id="live-feed-title" mb="sm">
        Live Activity Feed
      </Title>
      <ScrollArea h={320} type="auto" viewportProps={{ tabIndex: 0, 'aria-labelledby': 'live-feed-title' }}>
        {events.length === 0 ? (
          <Text c="dimmed" size="sm" py="md">
            {connected
              ? 'Waiting for beacon events… They appear here as gateways report sightings.'
              : 'Not connected: live events appear here once the connection is back.'}
          </Text>
        ) : (
          <Stack gap="xs" component="ol" aria-live="polite" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {events.map((e) => (
              <li key={e.id} data-testid="feed-item">
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <div style={{ minWidth: 0 }}>
                    <Group gap={6} wrap="nowrap">
                      <TonePill tone={EVENT_COLORS[e.event_type]}>{EVENT_LABELS[e.event_type]}</TonePill>
                      <Text size="sm" fw={600} truncate>
                        {e.patient}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {timeOfDay(e.timestamp)} · {e.room ? `Room ${e.room}` : 'No room'} · {e.beacon_mac}
                    </Text>
                  </div>
                  <RssiBadge rssi={e.rssi} />
                </Group>
              </li>
            ))}
          </Stack>
        )}
      </ScrollArea>
    </Card>
  );
}
