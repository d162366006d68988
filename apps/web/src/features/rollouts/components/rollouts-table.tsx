import { Button, Table, Text } from '@mantine/core';
import type { Rollout } from '@fleet/shared/schemas/rollout';
import { Link } from 'react-router';
import { DataTable } from '@/components/ui/data-table/data-table.tsx';
import { ListEmpty } from '@/components/ui/table-states.tsx';
import classes from '@/components/ui/tones.module.css';
import { formatDateTime } from '@/lib/format/time.ts';
import { useRollouts } from '../api/rollouts-api.ts';
import { STATE_LABELS, STATE_TONES, targetLabel, deliversLabel } from './rollout-labels.ts';
import { ResultsBar, countsText } from './rollout-progress.tsx';

/** The entity's rollouts, newest first: name, what it delivers, state, progress and when it was created. */
export function RolloutsTable({ canCreate }: { canCreate: boolean }) {
  const rollouts = useRollouts();
  return (
    <DataTable
      label="Rollouts"
      columns={[
        { header: 'Name' },
        { header: 'Delivers' },
        { header: 'State' },
        { header: 'Progress', w: 260 },
        { header: 'Created' },
      ]}
      items={rollouts.data}
      loading={rollouts.isPending}
      failed={rollouts.isError}
      errorTitle="The rollouts could not be loaded."
      onRetry={() => void rollouts.refetch()}
      empty={
        <ListEmpty
          title="No rollouts yet"
          description="A rollout sends a firmware version to a set of devices in stages (a canary first) and pauses by itself when too many fail."
          action={canCreate && <NewRolloutButton />}
        />
      }
      minWidth={860}
      row={(r) => <RolloutRow key={r.id} rollout={r} />}
    />
  );
}

/** The way to the create form. */
export function NewRolloutButton() {
  return (
    <Button component={Link} to="/rollouts/new">
      New rollout
    </Button>
  );
}

function RolloutRow({ rollout: r }: { rollout: Rollout }) {
  const done = r.counts.succeeded + r.counts.skipped;
  return (
    <Table.Tr data-rollout={r.id}>
      <Table.Td>
        <Link to={`/rollouts/${r.id}`}>{r.name}</Link>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{deliversLabel(r)}</Text>
        <Text size="xs" c="dimmed">
          {targetLabel(r.target)}
        </Text>
      </Table.Td>
      <Table.Td>
        <span className={`${classes.tone} ${classes.pill}`} data-tone={STATE_TONES[r.state]}>
          {STATE_LABELS[r.state]}
        </span>
      </Table.Td>
      <Table.Td>
        <ResultsBar counts={r.counts} total={r.counts.total} label={`${r.name} progress`} size="md" />
        <Text size="xs" c="dimmed" mt={4} title={countsText(r.counts, r.counts.total)}>
          {r.state === 'draft' ? 'Not started' : `${done} of ${r.counts.total} on the version`}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>
        <Text size="xs" c="dimmed">
          by {r.created_by}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
