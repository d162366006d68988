import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlayerPause } from '@tabler/icons-react';
import type { Rollout, RolloutAction } from '@fleet/shared/schemas/rollout';
import { Link } from 'react-router';
import classes from '@/components/ui/tones.module.css';
import { formatDateTime } from '@/lib/format/time.ts';
import { useAccess } from '@/lib/session/use-access.ts';
import { useRolloutAction } from '../api/rollouts-api.ts';
import { RolloutActions } from './rollout-actions.tsx';
import { RolloutDevices } from './rollout-devices.tsx';
import { STATE_LABELS, STATE_TONES, targetLabel, deliversLabel, windowLabel } from './rollout-labels.ts';
import { ResultsBar, ResultsLegend, countsText } from './rollout-progress.tsx';

/** A rollout's page: state and actions, the pause reason, a bar per stage, its settings and the device results. */
export function RolloutView({ rollout: r }: { rollout: Rollout }) {
  const act = useRolloutAction(r.id);
  const canAct = useAccess('commands') === 'change';
  const busy = act.isPending ? (act.variables ?? null) : null;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="md">
        <div>
          <Anchor component={Link} to="/rollouts" size="sm">
            Rollouts
          </Anchor>
          <Group gap="sm" align="center">
            <Title order={1} size="h2">
              {r.name}
            </Title>
            <span
              className={`${classes.tone} ${classes.pill}`}
              data-tone={STATE_TONES[r.state]}
              data-testid="rollout-state"
            >
              {STATE_LABELS[r.state]}
            </span>
          </Group>
          <Text c="dimmed" size="sm" mt={4}>
            {deliversLabel(r)} · {targetLabel(r.target)} · created {formatDateTime(r.created_at)} by {r.created_by}
          </Text>
        </div>
        <RolloutActions rollout={r} canAct={canAct} busy={busy} onAction={(a: RolloutAction) => act.mutate(a)} />
      </Group>
      {r.pause_reason && (
        <Alert
          color={r.state === 'paused' ? 'red' : 'yellow'}
          variant="light"
          title={r.state === 'paused' ? 'Paused' : 'Note'}
          icon={<IconPlayerPause size={18} aria-hidden />}
          role="status"
        >
          {r.pause_reason}
        </Alert>
      )}
      {r.state === 'awaiting_approval' && !r.pause_reason && (
        <Alert color="yellow" variant="light" title="Waiting for approval" role="status">
          {r.stages[r.current_stage]?.label ?? 'The stage'} is done; the next stage starts when someone approves it.
        </Alert>
      )}
      <Stages rollout={r} />
      <Settings rollout={r} />
      <section aria-labelledby="rollout-devices">
        <Title order={2} size="h4" id="rollout-devices" mb="sm">
          Devices
        </Title>
        <RolloutDevices id={r.id} stages={r.stages.map((s) => s.label)} />
      </section>
    </Stack>
  );
}

function Stages({ rollout: r }: { rollout: Rollout }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="rollout-stages">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="rollout-stages">
          Stages
        </Title>
        <ResultsLegend />
      </Group>
      {r.soak_until && (
        <Text size="sm" mb="sm" role="status">
          {r.stages[r.current_stage]?.label ?? 'The stage'} soaks until {formatDateTime(r.soak_until)}: a device that
          goes silent or reboot-loops meanwhile counts as failed.
        </Text>
      )}
      {r.state === 'draft' ? (
        <Text size="sm" c="dimmed">
          The stages fill when the rollout starts: {r.stages.map((s) => s.label).join(' → ')}.
        </Text>
      ) : (
        <Stack gap="sm">
          {r.stages.map((s) => (
            <div key={s.index} data-stage={s.index}>
              <Group justify="space-between" gap="xs" mb={4}>
                <Text size="sm" fw={s.index === r.current_stage && r.state !== 'finished' ? 700 : 500}>
                  {s.label}
                  {s.index === r.current_stage && r.state !== 'finished' && r.state !== 'cancelled' ? ' (current)' : ''}
                </Text>
                <Text size="xs" c="dimmed">
                  {countsText(s, s.size)}
                </Text>
              </Group>
              <ResultsBar counts={s} total={s.size} label={`Stage ${s.label}`} />
            </div>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function Settings({ rollout: r }: { rollout: Rollout }) {
  const items: Array<[string, string]> = [
    ['Success threshold', `${r.success_threshold_pct} %`],
    ['Error threshold', `over ${r.error_threshold_pct} % pauses`],
    ['Report timeout', `${r.report_timeout_s} s`],
    ['Max in flight', String(r.max_in_flight)],
    ['Approval between stages', r.approval ? 'Yes' : 'No'],
    ['Soak after each stage', r.soak_s ? `${r.soak_s} s` : 'None'],
    ['Jitter', r.jitter_s ? `up to ${r.jitter_s} s` : 'None'],
    ['Sends', windowLabel(r.window)],
  ];
  return (
    <Group gap="xl" component="dl" m={0}>
      {items.map(([k, v]) => (
        <div key={k}>
          <Text component="dt" size="xs" c="dimmed">
            {k}
          </Text>
          <Text component="dd" size="sm" m={0}>
            {v}
          </Text>
        </div>
      ))}
    </Group>
  );
}
