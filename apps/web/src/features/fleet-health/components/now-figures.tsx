import { Link } from 'react-router';
import { Paper, SimpleGrid, Stack, Text, VisuallyHidden } from '@mantine/core';
import { statusColor } from '@fleet/shared/constants';
import type { FleetHealth } from '@fleet/shared/schemas/fleet-health';
import { BATTERY_TONES } from '@/lib/device/device-health.ts';
import { deviceListHref, devicesText, SEEN_OF } from '../utils/health-links.ts';
import { BarList, type Bar } from './bar-list.tsx';
import classes from './fleet-health.module.css';
import { Section } from './section.tsx';

/** Charging has no colour in the spec (the list shows an icon): blue, the colour of work in progress. */
const CHARGING_TONE = 'blue';

const PRESENCE = [
  { key: 'total', label: 'All devices', color: undefined },
  { key: 'online', label: 'Online now', color: 'green' },
  { key: 'unresponsive', label: 'Unresponsive', color: 'red' },
  { key: 'never_seen', label: 'Never seen', color: 'gray' },
] as const;

interface NowFiguresProps {
  health: FleetHealth;
  landlord: boolean;
  /** The entity the superadmin's screen is narrowed to (its links keep it). */
  entity?: string;
}

/** The fleet now: presence figures, battery bands, states and firmware per device type, each opening the filtered list. */
export function NowFigures({ health, landlord, entity }: NowFiguresProps) {
  const href = (params: Record<string, string>) => deviceListHref(landlord, entity, params);
  const battery: Bar[] = health.battery.map(({ band, count }) => ({
    key: band,
    label: band,
    count,
    color: band === 'Charging' ? CHARGING_TONE : BATTERY_TONES[band],
    to: href({ battery: band }),
    ...(band === 'Charging'
      ? { before: 'Open the devices that are', after: ':' }
      : { before: 'Open the devices with', after: ' battery:' }),
  }));
  const states: Bar[] = health.states.map(({ state, count }) => ({
    key: state ?? '(none)',
    label: state ?? 'No state reported',
    count,
    color: statusColor(state),
    ...(state === null ? {} : { to: href({ status: state }), before: 'Open the devices in state' }),
  }));
  const types = [...new Set(health.firmware.map((f) => f.type))];

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        {PRESENCE.map((p) => {
          const n = health.devices[p.key];
          const seen: Record<string, string> = p.key === 'total' ? {} : { seen: SEEN_OF[p.key] };
          return (
            <Paper
              key={p.key}
              withBorder
              radius="md"
              p="md"
              component={Link}
              to={href(seen)}
              className={classes.stat}
              data-stat={p.key}
            >
              <Text size="sm" c="dimmed">
                <VisuallyHidden>Open </VisuallyHidden>
                {p.label}
                <VisuallyHidden>:</VisuallyHidden>
              </Text>
              <Text fz={28} fw={700} c={p.color ? `${p.color}.7` : undefined} lh={1.2}>
                {n.toLocaleString()}
                <VisuallyHidden>{n === 1 ? ' device' : ' devices'}</VisuallyHidden>
              </Text>
            </Paper>
          );
        })}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title="Battery">
          <BarList bars={battery} testId="battery-bars" />
        </Section>
        <Section title="States">
          <BarList bars={states} testId="state-bars" />
        </Section>
      </SimpleGrid>
      <Section title="Firmware by device type">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {types.map((type) => {
            const rows = health.firmware.filter((f) => f.type === type);
            const all = rows.reduce((sum, r) => sum + r.count, 0);
            const bars: Bar[] = rows.map(({ version, count }) => {
              const share = `${Math.round((count / Math.max(1, all)) * 100)} %`;
              return {
                key: `${type}-${version ?? ''}`,
                label: `${version ?? 'None reported'} · ${share}`,
                count,
                color: version === null ? 'gray' : 'indigo',
                ...(version === null
                  ? {}
                  : {
                      to: href({ fw_version: version, type }),
                      before: `Open the ${type} devices on firmware`,
                    }),
              };
            });
            return (
              <div key={type}>
                <Text size="sm" fw={600} mb={4}>
                  {type} ({devicesText(all)})
                </Text>
                <BarList bars={bars} testId={`firmware-bars-${type}`} />
              </div>
            );
          })}
        </SimpleGrid>
      </Section>
    </Stack>
  );
}
