import { CommandAnswerSchema, type CommandAnswer } from '@fleet/shared/schemas/command';
import type { Device } from '@fleet/shared/schemas/device';
import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api/api.ts';
import { commandPayload, type CommandRequestPayload, type ConsoleCommand } from '../utils/command-actions.ts';
import { commandAnswerNotice, commandFailureNotice } from '../utils/command-notices.ts';
import { showNotice } from '../utils/show-notice.ts';
import { commandPath, deviceKeys } from '../../../lib/api/device-paths.ts';
import { sendFirmwareUpdate } from './update-firmware.ts';

/**
 * POST tenant/{entity}/mqtt/general/{device} `{payload}`: 200 when the device carried it out,
 * 202 `queued` when it sleeps. Failures are not announced here: the caller words them.
 */
export async function sendCommand(
  entity: string,
  device: string,
  payload: CommandRequestPayload,
): Promise<CommandAnswer> {
  return api.post(
    commandPath(entity, device),
    { payload },
    { notify: false, parse: (d) => CommandAnswerSchema.parse(d) },
  );
}

/** One command to one device; the device travels whole for its entity (command paths are tenant-scoped). */
export interface CommandVariables {
  device: Pick<Device, 'name' | 'entity'>;
  action: ConsoleCommand;
}

const COMMAND_KEY = ['device-command'] as const;

/**
 * Sends a command and says how it went (core §8): 'Vibrate sent to {id}', the server's text as
 * a warning when the command is held for a sleeping device, or '{Command} failed to send' with
 * the error text. The device caches refresh afterwards either way (state, history).
 */
export function useSendCommand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: COMMAND_KEY,
    mutationFn: ({ device, action }: CommandVariables) =>
      action === 'dfu'
        ? sendFirmwareUpdate(device.entity, device.name)
        : sendCommand(device.entity, device.name, commandPayload(action)),
    // The server stores the command before it waits for the reply: show it in the history as
    // sent while the device is asked, not only when the answer arrives.
    onMutate: () => {
      window.setTimeout(() => void queryClient.invalidateQueries({ queryKey: [...deviceKeys.all, 'commands'] }), 1_000);
    },
    onSuccess: (answer, { device, action }) => showNotice(commandAnswerNotice(action, device.name, answer)),
    onError: (error, { device, action }) => {
      // A device saying no is an outcome the notice explains, not a fault of the console: a warning.
      console.warn(`${action} not sent to ${device.name}:`, error);
      const notice = commandFailureNotice(action, device.name, error);
      if (notice) showNotice(notice);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}

/** Every command in flight from this tab, for loading states on the rows and buttons they came from. */
export function usePendingCommands(): CommandVariables[] {
  return useMutationState({
    filters: { mutationKey: COMMAND_KEY, status: 'pending' },
    select: (mutation) => mutation.state.variables as CommandVariables,
  });
}
