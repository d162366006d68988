import { Card, SimpleGrid, Text } from '@mantine/core';
import { IconActivity, IconBroadcast, IconClock, IconRouter, type Icon } from '@tabler/icons-react';
import { formatRelative } from '@/lib/format/time.ts';

interface Props {
  totalEvents: number | undefined;
  activeBeacons: number;
  devicesOnline: number | undefined;
  lastUpdate: string | null | undefined;
  now: number;
}

function Stat({ label, value, hint, icon: StatIcon }: { label: string; value: string; hint: string; icon: Icon }) {
  return (
    <Card withBorder radius="md" padding="md" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <StatIcon size={16} aria-hidden /> {label}
      </Text>
      <Text fz={28} fw={700} mt={4}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
    </Card>
  );
}

/** The four cards (fleet §2): Total Events (24 h), Active Beacons, Devices Online (real gateways), Last Update. */
export function BeaconStats({ totalEvents, activeBeacons, devicesOnline, lastUpdate, now }: Props) {
  const dash = '–';
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mb="lg">
      <Stat label="Total Events" value={totalEvents?.toString() ?? dash} hint="Last 24 hours" icon={IconActivity} />
      <Stat
        label="Active Beacons"
        value={String(activeBeacons)}
        hint="Seen in the last 5 minutes"
        icon={IconBroadcast}
      />
      <Stat
        label="Devices Online"
        value={devicesOnline?.toString() ?? dash}
        hint="Gateways reporting"
        icon={IconRouter}
      />
      <Stat
        label="Last Update"
        value={lastUpdate ? formatRelative(lastUpdate, now) : 'Never'}
        hint={lastUpdate ? new Date(lastUpdate).toLocaleString() : 'No beacon event yet'}
        icon={IconClock}
      />
    </SimpleGrid>
  );
}
