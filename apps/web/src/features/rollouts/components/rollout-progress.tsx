import { Box, Group, Progress, Text } from '@mantine/core';
import type { RolloutStage } from '@fleet/shared/schemas/rollout';
import { RESULTS } from './rollout-labels.ts';

type Counts = Pick<RolloutStage, 'succeeded' | 'failed' | 'in_flight' | 'waiting' | 'skipped'>;

/** The counts in words, for screen readers and the tooltip: "3 succeeded, 1 failed of 10". */
export function countsText(counts: Counts, total: number): string {
  const parts = RESULTS.filter((r) => counts[r.state] > 0).map((r) => `${counts[r.state]} ${r.label.toLowerCase()}`);
  return `${parts.join(', ') || 'no devices'} of ${total}`;
}

/** One bar split by result (succeeded, failed, in flight, skipped, waiting); empty when there are no devices. */
export function ResultsBar({
  counts,
  total,
  label,
  size = 'lg',
}: {
  counts: Counts;
  total: number;
  label: string;
  size?: string;
}) {
  return (
    <Progress.Root size={size} aria-label={`${label}: ${countsText(counts, total)}`} role="img">
      {total > 0 &&
        RESULTS.map((r) =>
          counts[r.state] > 0 ? (
            <Progress.Section key={r.state} value={(counts[r.state] / total) * 100} color={r.color} />
          ) : null,
        )}
    </Progress.Root>
  );
}

/** What each colour of the bars means. */
export function ResultsLegend() {
  return (
    <Group gap="md">
      {RESULTS.map((r) => (
        <Group key={r.state} gap={6} wrap="nowrap">
          <Box w={12} h={12} bg={r.color} style={{ borderRadius: 3 }} />
          <Text size="xs">{r.label}</Text>
        </Group>
      ))}
    </Group>
  );
}
