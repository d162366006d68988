import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import type { Selection } from '@fleet/shared/schemas/device-view';
import {
  SelectionFirmwarePlanSchema,
  SelectionGroupPlanSchema,
  SelectionProvisionPlanSchema,
  type SelectionChoices,
} from '@fleet/shared/schemas/selection-actions';
import { useQuery } from '@tanstack/react-query';
import { actOnSelection, planOnSelection, useSelectionChoices } from '@/features/devices/api/saved-views.ts';
import { notifyFailure } from '@/lib/notify-failure.ts';
import { firmwarePlanText, groupPlanText, provisionPlanText } from './plan-text.ts';

export type ChoiceAction = 'firmware' | 'group' | 'provision';

const KINDS = {
  firmware: { title: 'Update Firmware', field: 'Firmware', key: 'firmware_id', verb: 'Update' },
  group: { title: 'Put into group', field: 'Group', key: 'group_id', verb: 'Put' },
  /** Nothing to choose: the dry run is asked at once. */
  provision: { title: 'Provision', field: null, key: null, verb: 'Provision' },
} as const;

/** Where a firmware was uploaded, as the picker says it: nothing for the entity, else the site or group. */
const placeLabel = (f: SelectionChoices['firmware'][number]) =>
  f.level === 'entity' ? '' : ` · ${f.level} ${f.place}`;

/**
 * The firmware (`CC2 2.0.0 · site North`, every level) or groups the selection may be given, from
 * the entities of its devices; on the landlord's list each names its entity first.
 */
function useChoices(kind: ChoiceAction, landlord: boolean, sel: Selection) {
  const choices = useSelectionChoices(landlord, sel.id, kind !== 'provision');
  const of = (entity: string) => (landlord ? `${entity}: ` : '');
  if (kind === 'firmware')
    return choices.data?.firmware.map((f) => ({
      value: f.id,
      label: `${of(f.entity)}${f.device_type} ${f.version}${placeLabel(f)}`,
    }));
  if (kind === 'group') return choices.data?.groups.map((g) => ({ value: g.id, label: `${of(g.entity)}${g.name}` }));
  return [];
}

const bodyOf = (kind: ChoiceAction, choice: string | null) => {
  const key = KINDS[kind].key;
  return key ? { [key]: choice } : {};
};

/** Asks the server what the action would do with the chosen firmware or group: the dry run's words. */
function usePlanText(kind: ChoiceAction, landlord: boolean, sel: Selection, choice: string | null) {
  return useQuery({
    queryKey: ['device-selection', sel.id, kind, choice, landlord],
    queryFn: async () => {
      const body = bodyOf(kind, choice);
      if (kind === 'firmware') {
        const p = await planOnSelection(landlord, sel.id, kind, body, SelectionFirmwarePlanSchema);
        return { text: firmwarePlanText(p), n: p.update };
      }
      if (kind === 'group') {
        const p = await planOnSelection(landlord, sel.id, kind, body, SelectionGroupPlanSchema);
        return { text: groupPlanText(p), n: p.put };
      }
      const p = await planOnSelection(landlord, sel.id, kind, body, SelectionProvisionPlanSchema);
      return { text: provisionPlanText(p), n: p.start };
    },
    enabled: choice !== null || kind === 'provision',
  });
}

interface Props {
  kind: ChoiceAction;
  /** The landlord's list, across entities: its selection paths, and each choice names its entity. */
  landlord?: boolean;
  sel: Selection;
  onClose(): void;
  onStarted(label: string, id: string): void;
}

/**
 * The confirmation of a firmware update or a group placement on every matching device: choose
 * the firmware or group, read the dry run's breakdown (who is acted on, who is skipped and why),
 * confirm. Exactly the counted devices are considered; devices added after the count are not.
 */
export function MatchingChoiceDialog({ kind, landlord = false, sel, onClose, onStarted }: Props) {
  const k = KINDS[kind];
  const [choice, setChoice] = useState<string | null>(null);
  const choices = useChoices(kind, landlord, sel);
  const plan = usePlanText(kind, landlord, sel, choice);
  const [starting, setStarting] = useState(false);
  const confirm = async () => {
    setStarting(true);
    try {
      await actOnSelection(landlord, sel.id, kind, bodyOf(kind, choice));
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
