import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { RolloutDryRun } from '@fleet/shared/schemas/rollout';
import { ApiError } from '@/lib/api/api-error.ts';

/** The dry run in words: how many devices the target holds now, how many are skipped, and the stages. */
export function DryRunSummary({ ready, query }: { ready: boolean; query: UseQueryResult<RolloutDryRun> }) {
  let text: string;
  if (!ready) text = 'Choose what to deliver and the target to see how many devices each stage reaches.';
  else if (query.isError)
    text = query.error instanceof ApiError ? query.error.userMessage : 'The dry run could not be made.';
  else if (!query.data) text = 'Counting the devices…';
  else {
    const d = query.data;
    text =
      `If it started now: ${d.total} ${d.total === 1 ? 'device' : 'devices'} in the target, ` +
      `${d.skipped} already on the version (skipped), ${d.eligible} to update: ` +
      d.stages.map((s) => `${s.label} ${s.size}`).join(' → ');
  }
  return (
    <Text size="sm" mt="md" c={query.isError ? 'red' : undefined} aria-live="polite" data-testid="dry-run">
      {text}
    </Text>
  );
}
