import { useState } from 'react';
import { Badge, Button, SimpleGrid } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconRefresh, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { beaconKeys, useBeaconEvents } from '@/features/beacons/api/beacon-api.ts';
import { ActiveBeacons } from '@/features/beacons/components/active-beacons.tsx';
import { BeaconStats } from '@/features/beacons/components/beacon-stats.tsx';
import { EventHistory } from '@/features/beacons/components/event-history.tsx';
import { LiveFeed } from '@/features/beacons/components/live-feed.tsx';
import { ManageBeaconsModal } from '@/features/beacons/components/manage-beacons-modal.tsx';
import { useActiveBeacons } from '@/features/beacons/hooks/use-active-beacons.ts';
import { useBeaconSocket } from '@/features/beacons/hooks/use-beacon-socket.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { useNow } from '@/lib/use-now.ts';

/** /beacon-demo: beacon monitoring in real time (fleet §2). */
export function BeaconDemoPage() {
  useDocumentTitle('Beacon Monitoring');
  const entity = useActiveEntity();
  const queryClient = useQueryClient();
  const history = useBeaconEvents();
  const { active, detected } = useActiveBeacons(history.data?.events);
  const [liveLast, setLiveLast] = useState<string | null>(null);
  const socket = useBeaconSocket(entity, (event) => {
    detected(event);
    setLiveLast(event.timestamp);
  });
  const [managing, manage] = useDisclosure(false);
  const now = useNow(5_000);
  const polledLast = history.data?.stats.last_event_at ?? null;
  const lastUpdate = liveLast && (!polledLast || liveLast > polledLast) ? liveLast : polledLast;

  return (
    <>
      <PageHeader
        title="Beacon Monitoring"
        description="Patients’ beacons as gateways see them, with medication reminders."
        actions={
          <>
            <Badge
              size="lg"
              variant="dot"
              color={socket.connected ? 'teal' : 'red'}
              role="status"
              aria-label={socket.connected ? 'Connected' : 'Disconnected'}
            >
              {socket.connected ? 'Connected' : 'Disconnected'}
            </Badge>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => {
                socket.reconnect();
                void queryClient.invalidateQueries({ queryKey: beaconKeys.all });
              }}
            >
              Refresh
            </Button>
            <Button leftSection={<IconSettings size={16} aria-hidden />} onClick={manage.open}>
              Manage Beacons
            </Button>
          </>
        }
      />
      <BeaconStats
        totalEvents={history.data?.stats.total_events_24h}
        activeBeacons={active.length}
        devicesOnline={history.data?.stats.gateways_online}
        lastUpdate={lastUpdate}
        now={now}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="lg">
        <LiveFeed events={socket.feed} connected={socket.connected} />
        <ActiveBeacons beacons={active} now={now} />
      </SimpleGrid>
      <EventHistory
        events={history.data?.events}
        loading={history.isPending}
        failed={history.isError}
        onRetry={() => void history.refetch()}
      />
      <ManageBeaconsModal opened={managing} onClose={manage.close} />
    </>
  );
}
