import { useEffect, useRef, useState } from 'react';
import { CloseButton, Group, Loader, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { EntityCommandProgress } from '@fleet/shared/schemas/command';
import { getEntityCommandProgress } from '../api/send-bulk-command.ts';
import { showNotice } from '../utils/show-notice.ts';

/**
 * The held share of the bar (devices asleep or not connected yet): Mantine's filled grey in the
 * dark scheme (gray-8) all but vanishes on the bar's track (dark-4), so a lighter grey there, a
 * darker one in light, both over 3:1 against the track (WCAG 1.4.11), and striped so it does not
 * rest on colour alone.
 */
export const HELD_FILL = 'light-dark(var(--mantine-color-gray-7), var(--mantine-color-gray-4))';

/** How often a running entity-wide command's progress is read. */
export const ENTITY_PROGRESS_POLL_MS = 1_000;

interface Run {
  entity: string;
  /** The label of the menu item that started it, e.g. 'Vibrate all devices of acme'. */
  label: string;
  started: EntityCommandProgress;
}

/**
 * An entity-wide command followed after its call answered at once: `start` takes that answer,
 * and `panel` shows how many devices it went to and how many answered, read every second until
 * none waits for a reply; then a notice sums it up. Closing the panel stops following it.
 */
export function useEntityCommandRun() {
  const [run, setRun] = useState<Run | null>(null);
  const start = (entity: string, label: string, started: EntityCommandProgress) => setRun({ entity, label, started });
  const panel = run && <EntityCommandPanel key={run.started.data.id} run={run} onClose={() => setRun(null)} />;
  return { start, panel };
}

function EntityCommandPanel({ run, onClose }: { run: Run; onClose(): void }) {
  const { entity, started } = run;
  const { id } = started.data;
  const progress = useQuery({
    // Not under the device keys: a device change (delete all) must not read it again.
    queryKey: ['entity-command', entity, id],
    queryFn: ({ signal }) => getEntityCommandProgress(entity, id, signal),
    // The call's own answer is a fresh reading: the next one is a poll away.
    initialData: started,
    staleTime: ENTITY_PROGRESS_POLL_MS,
    // Stops once none waits for a reply, or when it cannot be read (its devices were deleted):
    // the last reading stays.
    refetchInterval: (query) =>
      query.state.data?.status === 'done' || query.state.error ? false : ENTITY_PROGRESS_POLL_MS,
  }).data;
  const announced = useRef(false);
  useEffect(() => {
    if (progress.status !== 'done' || announced.current) return;
    announced.current = true;
    const { failed, timed_out } = progress.data.counts;
    showNotice({ tone: failed + timed_out > 0 ? 'warning' : 'success', message: progress.userMessage });
  }, [progress]);

  const { total, counts } = progress.data;
  const share = (n: number) => (total === 0 ? 0 : (n / total) * 100);
  const done = progress.status === 'done';
  const answered = counts.succeeded + counts.failed;
  return (
    <Paper withBorder radius="md" p="sm" mb="md" role="status" aria-label={`${run.label}: progress`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="xs" wrap="nowrap">
            {done ? (
              <ThemeIcon size="sm" radius="xl" color="teal" variant="light" aria-hidden>
                <IconCheck size={14} />
              </ThemeIcon>
            ) : (
              <Loader size="xs" aria-hidden />
            )}
            <Text size="sm" fw={600}>
              {run.label}
            </Text>
          </Group>
          <CloseButton
            size="sm"
            aria-label={`Close the progress of ${COMMAND_LABELS[progress.data.type]}`}
            onClick={onClose}
          />
        </Group>
        <Text size="sm">
          Sent to {total} device{total === 1 ? '' : 's'} · {answered} answered
          {counts.failed > 0 && ` (${counts.failed} with an error)`}
          {counts.sent > 0 && ` · ${counts.sent} waiting for a reply`}
          {counts.queued > 0 && ` · ${counts.queued} not connected: held until they connect`}
          {counts.timed_out > 0 && ` · ${counts.timed_out} did not answer`}
        </Text>
        <Progress.Root size="md" aria-hidden>
          <Progress.Section value={share(counts.succeeded)} color="teal" />
          <Progress.Section value={share(counts.failed + counts.timed_out)} color="red" />
          <Progress.Section value={share(counts.sent)} color="blue" striped animated={!done} />
          <Progress.Section value={share(counts.queued + counts.expired)} color={HELD_FILL} striped />
        </Progress.Root>
      </Stack>
    </Paper>
  );
}
