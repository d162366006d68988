import { Alert, Button, Skeleton, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { RolloutView } from '@/features/rollouts/components/rollout-view.tsx';
import { useRollout } from '@/features/rollouts/api/rollouts-api.ts';
import { useRolloutEvents } from '@/features/rollouts/hooks/use-rollout-events.ts';
import { ApiError } from '@/lib/api/api-error.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /rollouts/:id: one rollout, live through the entity's rollout events (issue 28). */
export function RolloutPage() {
  const { id = '' } = useParams();
  const rollout = useRollout(id);
  useRolloutEvents();
  useDocumentTitle(rollout.data ? `Rollout ${rollout.data.name}` : 'Rollout');
  if (rollout.data) return <RolloutView rollout={rollout.data} />;
  if (rollout.isError) {
    const missing = rollout.error instanceof ApiError && rollout.error.status === 404;
    return (
      <Alert
        color="red"
        variant="light"
        role="alert"
        title={missing ? 'No such rollout' : 'The rollout could not be loaded.'}
      >
        {!missing && (
          <Button size="xs" variant="default" mt="xs" onClick={() => void rollout.refetch()}>
            Try again
          </Button>
        )}
      </Alert>
    );
  }
  return (
    <Stack gap="md" aria-busy>
      <Skeleton height={32} width="40%" />
      <Skeleton height={160} />
      <Skeleton height={200} />
    </Stack>
  );
}
