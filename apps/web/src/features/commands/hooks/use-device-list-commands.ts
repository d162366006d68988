import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { Device } from '@fleet/shared/schemas/device';
import { notifyWarning } from '@/lib/notify.ts';
import { useActiveEntity } from '@/lib/session/use-active-entity.ts';
import { useSendBulkCommand, useSendEntityCommand } from '../api/send-bulk-command.ts';
import { usePendingCommands, useSendCommand } from '../api/send-command.ts';
import { useConfirmCommand } from '../components/confirm-command.tsx';
import { useBulkResults } from '../components/bulk-results-panel.tsx';
import { useEntityCommandRun } from '../components/entity-command-progress.tsx';
import { planBulkCommand, type BulkPlan } from '../utils/bulk-commands.ts';
import { needsConfirmation, type ConsoleCommand } from '../utils/command-actions.ts';
import { confirmOne, confirmSelected, confirmVibrateAll } from '../utils/command-confirmations.ts';
import { NO_DEVICES_SELECTED, nothingSendableText } from '../utils/command-notices.ts';

interface ListCommandOptions {
  landlord: boolean;
  /** The list's Entity filter ('' for every entity); only the landlord's list has one. */
  entityFilter: string;
  selected: ReadonlySet<string>;
  /** The page on screen: selected devices are looked up among every page shown since. */
  devices: readonly Device[] | undefined;
}

/**
 * Commands from the device list: a row's command, the Multi-Device Action's commands to the
 * selection, and the entity-wide vibrate, with their confirmations (render `confirmDialog`);
 * `planSelected` lends the selection to other actions on many devices (provisioning).
 */
export function useDeviceListCommands({ landlord, entityFilter, selected, devices }: ListCommandOptions) {
  const entity = useActiveEntity();
  const known = useKnownDevices(devices);
  const [confirm, confirmDialog] = useConfirmCommand();
  const { mutate: sendOne } = useSendCommand();
  // A refresh's replies are what the user asked for: each device's is listed, not only counted.
  const replies = useBulkResults();
  const bulk = useSendBulkCommand((action, answer) => {
    if (action === 'refresh') replies.show('Refresh selected', answer);
  });
  const entityRun = useEntityCommandRun();
  const pending = usePendingCommands();
  const commanding = useMemo(() => new Set(pending.map(({ device }) => device.name)), [pending]);
  // The active entity (a superadmin's: the one it opened); on the landlord's list it counts
  // only when the Entity filter narrows the list to one. Without it "Vibrate all devices" would
  // reach every entity's devices, which the API offers no call for: the item is hidden then.
  const active = landlord ? entityFilter || null : entity;
  const vibrateAllLabel =
    active === null ? null : landlord ? `Vibrate all devices of ${active}` : 'Vibrate all devices';
  // The server answers at once; the run's panel follows the devices' answers.
  const everyone = useSendEntityCommand((to, answer) => entityRun.start(to, vibrateAllLabel ?? to, answer));

  const onCommand = useCallback(
    async (device: Device, action: ConsoleCommand) => {
      if (needsConfirmation(action) && !(await confirm(confirmOne(action as 'reboot' | 'dfu', device.name)))) return;
      sendOne({ device, action });
    },
    [confirm, sendOne],
  );

  /** The selection split per entity, unresponsive devices left out; null (after a notice) when nothing is selected. */
  const planSelected = (): BulkPlan | null => {
    if (selected.size === 0) {
      notifyWarning(NO_DEVICES_SELECTED);
      return null;
    }
    return planBulkCommand(selected, known.current, Date.now(), active);
  };

  const onCommandSelected = async (action: ConsoleCommand) => {
    const plan = planSelected();
    if (plan === null) return;
    if (plan.sendable === 0)
      return notifyWarning(nothingSendableText(action, plan.unresponsive.length, plan.unlisted.length));
    const ask = confirmSelected(action as 'reboot' | 'dfu', plan.sendable, plan.unresponsive.length);
    if (needsConfirmation(action) && !(await confirm(ask))) return;
    bulk.mutate({ plan, action });
  };

  const onVibrateAll = async () => {
    if (active !== null && (await confirm(confirmVibrateAll(active))))
      everyone.mutate({ entity: active, action: 'vibrate' });
  };

  return {
    onCommand,
    commanding,
    onCommandSelected,
    vibrateAllLabel,
    onVibrateAll,
    planSelected,
    /** A device shown since the list opened, by name (what the plan's devices were when last seen). */
    deviceOf: (name: string) => known.current.get(name),
    busy: bulk.isPending || everyone.isPending,
    confirmDialog,
    /** How far the last entity-wide command got: render it above the list. */
    progressPanel: entityRun.panel,
    /** Each device's reply to the last "Refresh selected": render it above the list. */
    repliesPanel: replies.panel,
  };
}

/** Every device shown since the list opened, by name: the selection outlives paging. */
function useKnownDevices(devices: readonly Device[] | undefined) {
  const known = useRef(new Map<string, Device>());
  useEffect(() => {
    for (const device of devices ?? []) known.current.set(device.name, device);
  }, [devices]);
  return known;
}
