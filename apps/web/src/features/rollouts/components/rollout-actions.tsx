import { useState } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import type { Rollout, RolloutAction, RolloutState } from '@fleet/shared/schemas/rollout';

/**
 * The actions and the states each applies in (the server answers 409 in any other: docs/rollouts.md);
 * retry only when devices failed.
 */
const ACTIONS = [
  { action: 'start', label: 'Start', variant: 'filled', from: ['draft'] },
  { action: 'approve', label: 'Approve next stage', variant: 'filled', from: ['awaiting_approval'] },
  { action: 'resume', label: 'Resume', variant: 'filled', from: ['paused'] },
  {
    action: 'retry',
    label: 'Retry failed',
    variant: 'light',
    from: ['paused', 'finished', 'running', 'awaiting_approval'],
  },
  { action: 'pause', label: 'Pause', variant: 'default', from: ['running', 'awaiting_approval'] },
  {
    action: 'cancel',
    label: 'Cancel rollout',
    variant: 'default',
    from: ['draft', 'running', 'paused', 'awaiting_approval'],
  },
] as const satisfies ReadonlyArray<{
  action: RolloutAction;
  label: string;
  variant: string;
  from: readonly RolloutState[];
}>;

/** The actions valid for the rollout's state now. */
export function validActions(rollout: Pick<Rollout, 'state' | 'counts'>) {
  return ACTIONS.filter(
    (a) =>
      (a.from as readonly RolloutState[]).includes(rollout.state) &&
      (a.action !== 'retry' || rollout.counts.failed > 0),
  );
}

interface RolloutActionsProps {
  rollout: Pick<Rollout, 'name' | 'state' | 'counts'>;
  /** The account may act on rollouts (the commands area). */
  canAct: boolean;
  /** The action under way, if any: its button spins and the others wait. */
  busy: RolloutAction | null;
  onAction(action: RolloutAction): void;
}

/** The rollout's buttons: only those its state allows, and none for an account that may not act. */
export function RolloutActions({ rollout, canAct, busy, onAction }: RolloutActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const actions = canAct ? validActions(rollout) : [];
  if (actions.length === 0) return null;
  return (
    <Group gap="sm">
      {actions.map((a) => (
        <Button
          key={a.action}
          variant={a.variant}
          color={a.action === 'cancel' ? 'red' : undefined}
          loading={busy === a.action}
          disabled={busy !== null && busy !== a.action}
          onClick={() => (a.action === 'cancel' ? setConfirming(true) : onAction(a.action))}
        >
          {a.label}
        </Button>
      ))}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Cancel this rollout?" centered size="sm">
        <Text size="sm">
          Nothing new will be sent for {rollout.name}; devices updating now finish and are counted. A cancelled rollout
          cannot be started again.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
            Keep it
          </Button>
          <Button
            color="red"
            onClick={() => {
              setConfirming(false);
              onAction('cancel');
            }}
          >
            Cancel rollout
          </Button>
        </Group>
      </Modal>
    </Group>
  );
}
