import { PageHeader } from '@/components/ui/page-header.tsx';
import { NewRolloutButton, RolloutsTable } from '@/features/rollouts/components/rollouts-table.tsx';
import { useRolloutEvents } from '@/features/rollouts/hooks/use-rollout-events.ts';
import { useAccess } from '@/lib/session/use-access.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /rollouts: the active entity's firmware rollouts, live (issue 28). */
export function RolloutsPage() {
  useDocumentTitle('Rollouts');
  useRolloutEvents();
  const canCreate = useAccess('commands') === 'change';
  return (
    <>
      <PageHeader
        title="Rollouts"
        description="Firmware sent in stages, paused by itself when too many devices fail."
        actions={canCreate && <NewRolloutButton />}
      />
      <RolloutsTable canCreate={canCreate} />
    </>
  );
}
