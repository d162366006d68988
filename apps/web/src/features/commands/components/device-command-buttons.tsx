import { Button, Group, Loader, Text } from '@mantine/core';
import type { Device } from '@fleet/shared/schemas/device';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import { usePendingCommands, useSendCommand } from '../api/send-command.ts';
import { useNow } from '@/lib/use-now.ts';
import { COMMAND_ACTIONS, needsConfirmation, type ConsoleCommand } from '../utils/command-actions.ts';
import { commandAvailability } from '@/lib/device/command-availability.ts';
import { confirmReboot } from '../utils/command-confirmations.ts';
import { CommandIcon } from './command-icons.tsx';
import { useConfirmCommand } from './confirm-command.tsx';

/**
 * Refresh, Vibrate and Reboot for the device screen's header: disabled (and saying why) for an
 * unresponsive device, noting that a sleeping one holds them. Sent commands refresh the history.
 */
export function DeviceCommandButtons({ device }: { device: Device }) {
  const now = useNow();
  const availability = commandAvailability(device, now);
  const { mutate } = useSendCommand();
  const inFlight = usePendingCommands().find((p) => p.device.name === device.name)?.action ?? null;
  const [confirm, confirmDialog] = useConfirmCommand();

  const send = async (action: ConsoleCommand) => {
    if (inFlight !== null) return;
    if (needsConfirmation(action) && !(await confirm(confirmReboot(device.name)))) return;
    mutate({ device, action });
  };

  return (
    <Group gap="xs" wrap="wrap" justify="flex-end">
      {availability.note && (
        <Text size="sm" c="dimmed" id={`command-note-${device.name}`}>
          {availability.note}
        </Text>
      )}
      {COMMAND_ACTIONS.map((action) => {
        const sending = inFlight === action;
        return (
          <Button
            key={action}
            variant="default"
            leftSection={sending ? <Loader size={14} /> : <CommandIcon action={action} />}
            // While one command is in flight the others wait; the sending button keeps focus
            // (data-disabled, not disabled) so a keyboard user is not thrown back to the page.
            disabled={!availability.enabled || (inFlight !== null && !sending)}
            data-disabled={sending || undefined}
            aria-busy={sending || undefined}
            aria-describedby={availability.note ? `command-note-${device.name}` : undefined}
            onClick={() => void send(action)}
          >
            {COMMAND_LABELS[action]}
          </Button>
        );
      })}
      {confirmDialog}
    </Group>
  );
}
