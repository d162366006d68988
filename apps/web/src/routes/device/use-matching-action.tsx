import { useEffect, useState } from 'react';
import { Button, Group, Modal, Paper, Progress, Stack, Text } from '@mantine/core';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { Selection } from '@fleet/shared/schemas/device-view';
import { useQueryClient } from '@tanstack/react-query';
import { commandPayload, type ConsoleCommand, type GeneralCommand } from '@/features/commands/utils/command-actions.ts';
import { deviceKeys } from '@/lib/api/device-paths.ts';
import { notifyFailure } from '@/lib/notify-failure.ts';
import { MatchingChoiceDialog, type ChoiceAction } from './matching-choice-dialog.tsx';
import { actOnSelection, countMatching, useSelectionProgress } from '@/features/devices/api/saved-views.ts';

export type MatchingAction = GeneralCommand | 'delete';

const plural = (n: number) => `${n} device${n === 1 ? '' : 's'}`;
const labelOf = (action: MatchingAction) => (action === 'delete' ? 'Delete' : COMMAND_LABELS[action]);

/** What a running or finished selection says: handled so far and, for a command, the replies. */
export function progressText(label: string, sel: Selection): string {
  const head = `${label}: ${sel.done} of ${plural(sel.total)} handled`;
  const c = sel.counts;
  if (!c) return sel.state === 'done' ? `${label}: ${plural(sel.done)} done` : head;
  const parts = [
    `${(c.succeeded ?? 0) + (c.failed ?? 0)} answered`,
    c.sent && `${c.sent} waiting for a reply`,
    c.queued && `${c.queued} held until they connect`,
    c.timed_out && `${c.timed_out} did not answer`,
  ].filter(Boolean);
  return `${head}, ${parts.join(', ')}`;
}

/**
 * "Select all N matching" actions: the server counts the filter's devices (a dry run fixing the
 * set), the user confirms that count, the server acts on exactly that set in batches, and the
 * progress shows until it is done.
 */
export function useMatchingAction(landlord: boolean, query: string) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<{ action: MatchingAction; sel: Selection } | null>(null);
  const [job, setJob] = useState<{ label: string; id: string } | null>(null);
  const [counting, setCounting] = useState(false);
  const progress = useSelectionProgress(landlord, job?.id ?? null);

  const [choosing, setChoosing] = useState<{ kind: ChoiceAction; sel: Selection } | null>(null);

  const run = async (action: ConsoleCommand | 'delete' | 'provision' | 'group') => {
    setCounting(true);
    try {
      const sel = await countMatching(landlord, query);
      if (action === 'dfu' || action === 'group' || action === 'provision')
        setChoosing({ kind: action === 'dfu' ? 'firmware' : action, sel });
      else setPending({ action, sel });
    } catch (error) {
      notifyFailure(error);
    } finally {
      setCounting(false);
    }
  };
  const confirm = async () => {
    if (!pending) return;
    const { action, sel } = pending;
    setPending(null);
    try {
      const body = action === 'delete' ? undefined : { payload: commandPayload(action) };
      await actOnSelection(landlord, sel.id, action === 'delete' ? 'delete' : 'command', body);
      setJob({ label: labelOf(action), id: sel.id });
    } catch (error) {
      notifyFailure(error);
    }
  };
  const sel = progress.data;
  const finished = sel?.state === 'done';
  useEffect(() => {
    // Deleted devices leave the list; a command's replies change states and batteries.
    if (finished) void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
  }, [finished, queryClient]);

  const dialog = (
    <>
      {choosing && (
        <MatchingChoiceDialog
          kind={choosing.kind}
          landlord={landlord}
          sel={choosing.sel}
          onClose={() => setChoosing(null)}
          onStarted={(label, id) => {
            setChoosing(null);
            setJob({ label, id });
          }}
        />
      )}
      <Modal opened={pending !== null} onClose={() => setPending(null)} title="Act on every matching device">
        {pending && (
          <Stack>
            <Text>
              {labelOf(pending.action)} {plural(pending.sel.total)} matching the filters? Exactly these devices are
              acted on; devices added after this count are not.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                Cancel
              </Button>
              <Button
                color={pending.action === 'delete' ? 'red' : undefined}
                disabled={pending.sel.total === 0}
                onClick={() => void confirm()}
              >
                {labelOf(pending.action)} {plural(pending.sel.total)}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
  const panel = job && sel && (
    <Paper withBorder p="sm" mb="sm" role="status" aria-live="polite">
      <Text size="sm" mb={4}>
        {sel.state === 'done' ? 'Done. ' : ''}
        {progressText(job.label, sel)}
      </Text>
      <Progress value={sel.total === 0 ? 100 : (100 * sel.done) / sel.total} animated={sel.state !== 'done'} />
    </Paper>
  );
  return { run, dialog, panel, busy: counting };
}
