import {
  BulkCommandAnswerSchema,
  EntityCommandProgressSchema,
  type BulkCommandAnswer,
  type EntityCommandProgress,
} from '@fleet/shared/schemas/command';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { ApiError } from '@/lib/api/api-error.ts';
import { failedCall, mergeBulkAnswers, type BulkPlan } from '../utils/bulk-commands.ts';
import {
  commandPayload,
  type CommandRequestPayload,
  type ConsoleCommand,
  type GeneralCommand,
} from '../utils/command-actions.ts';
import { sendBulkFirmwareUpdate } from './update-firmware.ts';
import { bulkAnswerNotice, commandErrorText, commandFailureNotice, skippedText } from '../utils/command-notices.ts';
import { showNotice } from '../utils/show-notice.ts';
import { bulkCommandPath, deviceKeys, entityCommandPath } from '../../../lib/api/device-paths.ts';

const parse = (data: unknown) => BulkCommandAnswerSchema.parse(data);

/** POST tenant/{entity}/mqtt/general/devices `{devices, payload}`: one command to chosen devices. */
export async function sendBulkCommand(
  entity: string,
  devices: string[],
  payload: CommandRequestPayload,
): Promise<BulkCommandAnswer> {
  return api.post(bulkCommandPath(entity), { devices, payload }, { notify: false, parse });
}

const parseProgress = (data: unknown) => EntityCommandProgressSchema.parse(data);

/**
 * POST tenant/{entity}/mqtt/general/entity?wait=false `{payload}`: one command to every device
 * of the entity, answered at once (202) with how many devices it went to; follow it with
 * `getEntityCommandProgress`.
 */
export async function sendEntityCommand(
  entity: string,
  payload: CommandRequestPayload,
): Promise<EntityCommandProgress> {
  return api.post(
    entityCommandPath(entity),
    { payload },
    { notify: false, query: { wait: 'false' }, parse: parseProgress },
  );
}

/** GET tenant/{entity}/mqtt/general/entity/{id}: how many devices answered so far; a failure is the panel's to show. */
export async function getEntityCommandProgress(
  entity: string,
  id: string,
  signal?: AbortSignal,
): Promise<EntityCommandProgress> {
  return api.get(`${entityCommandPath(entity)}/${id}`, { signal, notify: false, parse: parseProgress });
}

/**
 * Sends a command to the planned devices, one call per entity (and per 1000 devices), and shows
 * one notice for all of it: green on success, amber when partial, red when nothing succeeded,
 * each saying how many selected devices were skipped as unresponsive; `onAnswer` then gets the
 * answer with each device's outcome.
 */
export function useSendBulkCommand(onAnswer?: (action: ConsoleCommand, answer: BulkCommandAnswer) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ plan, action }: { plan: BulkPlan; action: ConsoleCommand }) => {
      const settled = await Promise.allSettled(
        plan.calls.map((call) =>
          action === 'dfu'
            ? sendBulkFirmwareUpdate(call.entity, call.devices)
            : sendBulkCommand(call.entity, call.devices, commandPayload(action)),
        ),
      );
      const answers = plan.calls.map((call, i) => {
        const outcome = settled[i];
        if (outcome?.status === 'fulfilled') return outcome.value;
        return failedCall(call, commandErrorText(outcome?.reason));
      });
      // A failed sign-in renewal has been announced by the API client; one notice is enough.
      const renewal = settled.find((o) => o.status === 'rejected' && o.reason instanceof ApiError && o.reason.notified);
      return { answer: mergeBulkAnswers(answers), silent: renewal !== undefined && answers.length === 1 };
    },
    onSuccess: ({ answer, silent }, { plan, action }) => {
      if (silent) return;
      showNotice(bulkAnswerNotice(action, answer, skippedText(plan.unresponsive.length, plan.unlisted.length)));
      onAnswer?.(action, answer);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}

/**
 * Sends a command to every device of `entity` (the entity-wide vibrate, V101). The server
 * answers at once; `onStarted` gets that answer, whose progress the caller follows. A call that
 * fails outright says '{Command} failed to send'.
 */
export function useSendEntityCommand(onStarted: (entity: string, answer: EntityCommandProgress) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entity, action }: { entity: string; action: GeneralCommand }) =>
      sendEntityCommand(entity, commandPayload(action, 'entity')),
    onSuccess: (answer, { entity }) => onStarted(entity, answer),
    onError: (error, { entity, action }) => {
      // A device saying no is an outcome the notice explains, not a fault of the console: a warning.
      console.warn(`${action} not sent to the devices of ${entity}:`, error);
      const notice = commandFailureNotice(action, `Every device of ${entity}`, error);
      if (notice) showNotice(notice);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
