import { SimpleGrid, Stack, Text } from '@mantine/core';
import { FLEET_HEALTH_WINDOWS, type FleetHealth } from '@fleet/shared/schemas/fleet-health';
import { outcomeText } from '../utils/health-links.ts';
import { BarList, type Bar } from './bar-list.tsx';
import { ColumnChart, type ColumnPoint } from './column-chart.tsx';
import { Section } from './section.tsx';

const VERSION_COLORS = ['indigo', 'teal', 'orange', 'grape', 'cyan', 'pink', 'lime'];
/** Outcomes in the console's status colours: done green, refused red, waiting yellow, else blue. */
const OUTCOME_COLORS: Record<string, string> = {
  succeeded: 'green',
  provision_completed: 'green',
  failed: 'red',
  provision_failed: 'red',
  timed_out: 'red',
  timeout: 'red',
  expired: 'yellow',
  cancelled: 'gray',
  queued: 'yellow',
};

const outcomeBars = (rows: FleetHealth['outcomes']['commands']): Bar[] =>
  rows.map((r) => ({
    key: r.outcome,
    label: outcomeText(r.outcome),
    count: r.count,
    color: OUTCOME_COLORS[r.outcome] ?? 'blue',
  }));

/** The window's history: devices online and silent per bucket, firmware updates per version, and outcomes. */
export function HistorySection({ health }: { health: FleetHealth }) {
  const spec = FLEET_HEALTH_WINDOWS[health.window];
  const to = Date.parse(health.at);
  const from = to - spec.hours * 3_600_000;
  const bucketMs = health.presence.bucket_s * 1000;
  const presence: ColumnPoint[] = health.presence.points.map((p) => ({
    t: Date.parse(p.at),
    values: { online: p.online, silent: p.silent },
  }));
  const versions = [...new Set(health.adoption.map((a) => a.version))].sort();
  const adoption = new Map<number, ColumnPoint>();
  for (const a of health.adoption) {
    const t = Date.parse(a.at);
    const point = adoption.get(t) ?? { t, values: {} };
    point.values[a.version] = a.count;
    adoption.set(t, point);
  }
  const updated = health.adoption.reduce((sum, a) => sum + a.count, 0);
  const peakOnline = Math.max(0, ...health.presence.points.map((p) => p.online));

  return (
    <Stack gap="md">
      <Section title={`Devices online and unresponsive, last ${spec.label}`}>
        {presence.length === 0 ? (
          <Text size="sm" c="dimmed">
            No history yet: the hourly summary of device reports fills this in as the hours pass.
          </Text>
        ) : (
          <ColumnChart
            testId="presence-chart"
            series={[
              { key: 'online', label: 'Online', color: 'green' },
              { key: 'silent', label: 'Unresponsive (not heard in the bucket)', color: 'red' },
            ]}
            points={presence}
            from={from}
            to={to}
            bucketMs={bucketMs}
            summary={`Devices online and unresponsive over the last ${spec.label}: at most ${peakOnline} online in one bucket`}
          />
        )}
      </Section>
      <Section title={`Firmware adoption, last ${spec.label}`}>
        {updated === 0 ? (
          <Text size="sm" c="dimmed">
            No firmware updates finished in this window.
          </Text>
        ) : (
          <ColumnChart
            testId="adoption-chart"
            series={versions.map((v, i) => ({ key: v, label: v, color: VERSION_COLORS[i % VERSION_COLORS.length]! }))}
            points={[...adoption.values()]}
            from={from}
            to={to}
            bucketMs={bucketMs}
            summary={`Firmware updates finished over the last ${spec.label}: ${updated} devices updated, to ${versions.join(', ')}`}
          />
        )}
      </Section>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {(
          [
            ['Commands', health.outcomes.commands, 'commands'],
            ['Firmware updates', health.outcomes.firmware_updates, 'firmware'],
            ['Provisioning sessions', health.outcomes.provisioning, 'provisioning'],
          ] as const
        ).map(([title, rows, id]) => (
          <Section key={id} title={`${title}, last ${spec.label}`}>
            {rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                None in this window.
              </Text>
            ) : (
              <BarList bars={outcomeBars(rows)} testId={`outcome-bars-${id}`} />
            )}
          </Section>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
