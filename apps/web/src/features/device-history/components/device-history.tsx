import { useState } from 'react';
import { Box, Group, Loader, Paper, SegmentedControl, Skeleton, Title } from '@mantine/core';
import { ListError } from '@/components/ui/table-states.tsx';
import { useNow } from '@/lib/use-now.ts';
import { useTelemetry } from '../api/history-api.ts';
import { HISTORY_RANGES, historySeries, type HistoryRange } from '../utils/history-series.ts';
import { BatteryChart } from './battery-chart.tsx';
import { DeviceTimeline } from './device-timeline.tsx';

/** The range the data on screen covers (the previous one stays while the next loads). */
function shownRange(data: { from: string; to: string }): string {
  const span = Date.parse(data.to) - Date.parse(data.from);
  const near = (ms: number) => Math.abs(ms - span);
  return [...HISTORY_RANGES].sort((a, b) => near(a.ms) - near(b.ms))[0]!.label;
}

interface DeviceHistoryProps {
  /** The device's own entity (the landlord's screen serves every entity's devices). */
  entity: string;
  name: string;
  clock?: () => number;
}

/**
 * The device's History (issue 26): battery and charging over the last 24 h, 7 d or 30 d, online
 * and state bands under it, and the timeline below; refreshed every 30 s while open.
 */
export function DeviceHistory({ entity, name, clock }: DeviceHistoryProps) {
  const [range, setRange] = useState<HistoryRange>('24h');
  const telemetry = useTelemetry(entity, name, range, clock);
  const now = useNow();

  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" mb="md">
        <Group gap="xs">
          <Title order={2} size="h4">
            History
          </Title>
          {telemetry.isFetching && !telemetry.isPending && <Loader size="xs" aria-hidden />}
        </Group>
        <SegmentedControl
          size="xs"
          aria-label="History range"
          value={range}
          onChange={(value) => setRange(value as HistoryRange)}
          data={HISTORY_RANGES.map(({ value, label: text }) => ({ value, label: text }))}
        />
      </Group>
      <Box mb="lg" mih={230}>
        {telemetry.data ? (
          <BatteryChart series={historySeries(telemetry.data)} rangeLabel={`the last ${shownRange(telemetry.data)}`} />
        ) : telemetry.isPending ? (
          <Skeleton h={230} radius="sm" />
        ) : (
          <ListError title="The battery history could not be loaded." onRetry={() => void telemetry.refetch()} />
        )}
      </Box>
      <Title order={3} size="h5" mb="sm">
        Timeline
      </Title>
      <DeviceTimeline entity={entity} name={name} now={now} />
    </Paper>
  );
}
