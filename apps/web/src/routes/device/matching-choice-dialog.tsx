import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import type { Selection } from '@fleet/shared/schemas/device-view';
import {
  SelectionFirmwarePlanSchema,
  SelectionGroupPlanSchema,
  SelectionProvisionPlanSchema,
} from '@fleet/shared/schemas/selection-actions';
import { useQuery } from '@tanstack/react-query';
import { actOnSelection, planOnSelection } from '@/features/devices/api/saved-views.ts';
import { useFirmware } from '@/features/files/api/firmware.ts';
import { groupsApi } from '@/features/org/api/groups.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { notifyFailure } from '@/lib/notify-failure.ts';
import { firmwarePlanText, groupPlanText, provisionPlanText } from './plan-text.ts';

export type ChoiceAction = 'firmware' | 'group' | 'provision';

const KINDS = {
  firmware: { title: 'Update Firmware', field: 'Firmware', key: 'firmware_id', verb: 'Update' },
  group: { title: 'Put into group', field: 'Group', key: 'group_id', verb: 'Put' },
  /** Nothing to choose: the dry run is asked at once. */
  provision: { title: 'Provision', field: null, key: null, verb: 'Provision' },
} as const;

/** The entity's firmware (`CC2 2.0.0`) or groups, by id, while the dialog is open. */
function useChoices(kind: ChoiceAction) {
  const entity = useActiveEntity();
  const firmware = useFirmware({ level: 'entity', id: entity }, kind === 'firmware' && entity !== '');
  const groups = groupsApi.useList({ enabled: kind === 'group' });
  if (kind === 'firmware') return firmware.data?.map((f) => ({ value: f.id, label: `${f.device_type} ${f.version}` }));
  if (kind === 'group') return groups.data?.map((g) => ({ value: g.id, label: g.name }));
  return [];
}

const bodyOf = (kind: ChoiceAction, choice: string | null) => {
  const key = KINDS[kind].key;
  return key ? { [key]: choice } : {};
};

/** Asks the server what the action would do with the chosen firmware or group: the dry run's words. */
function usePlanText(kind: ChoiceAction, sel: Selection, choice: string | null) {
  return useQuery({
    queryKey: ['device-selection', sel.id, kind, choice],
    queryFn: async () => {
      const body = bodyOf(kind, choice);
      if (kind === 'firmware') {
        const p = await planOnSelection(false, sel.id, kind, body, SelectionFirmwarePlanSchema);
        return { text: firmwarePlanText(p), n: p.update };
      }
      if (kind === 'group') {
        const p = await planOnSelection(false, sel.id, kind, body, SelectionGroupPlanSchema);
        return { text: groupPlanText(p), n: p.put };
      }
      const p = await planOnSelection(false, sel.id, kind, body, SelectionProvisionPlanSchema);
      return { text: provisionPlanText(p), n: p.start };
    },
    enabled: choice !== null || kind === 'provision',
  });
}

interface Props {
  kind: ChoiceAction;
  sel: Selection;
  onClose(): void;
  onStarted(label: string, id: string): void;
}

/**
 * The confirmation of a firmware update or a group placement on every matching device: choose
 * the firmware or group, read the dry run's breakdown (who is acted on, who is skipped and why),
 * confirm. Exactly the counted devices are considered; devices added after the count are not.
 */
export function MatchingChoiceDialog({ kind, sel, onClose, onStarted }: Props) {
  const k = KINDS[kind];
  const [choice, setChoice] = useState<string | null>(null);
  const choices = useChoices(kind);
  const plan = usePlanText(kind, sel, choice);
  const [starting, setStarting] = useState(false);
  const confirm = async () => {
    setStarting(true);
    try {
      await actOnSelection(false, sel.id, kind, bodyOf(kind, choice));
      onStarted(k.title, sel.id);
    } catch (error) {
      notifyFailure(error);
    } finally {
      setStarting(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`${k.title}: every matching device`}>
      <Stack>
        <Text>
          {sel.total} device{sel.total === 1 ? '' : 's'} match the filters. Exactly these are considered; devices added
          after this count are not.
        </Text>
        {k.field && (
          <Select
            label={k.field}
            placeholder={choices ? `Choose the ${k.field.toLowerCase()}` : 'Loading…'}
            data={choices ?? []}
            value={choice}
            onChange={setChoice}
            searchable
            comboboxProps={{ withinPortal: false }}
          />
        )}
        {plan.isFetching && <Loader size="sm" aria-label="Counting" />}
        {plan.data && (
          <Alert variant="light" role="status">
            {plan.data.text}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!plan.data?.n || plan.isFetching} loading={starting} onClick={() => void confirm()}>
            {k.verb} {plan.data ? `${plan.data.n} device${plan.data.n === 1 ? '' : 's'}` : `${sel.total} matching`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
