import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import type { ConfirmRequest } from '../utils/command-confirmations.ts';

/**
 * A confirmation for commands that interrupt devices (reboot, every device vibrating). Returns
 * `confirm(request)`, resolving true only on the confirm button, and the dialog to render.
 */
export function useConfirmCommand(): [(request: ConfirmRequest) => Promise<boolean>, ReactNode] {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
    setRequest(null);
  }, []);

  const confirm = useCallback((next: ConfirmRequest) => {
    // A second request while one is open cancels the first rather than leaving it hanging.
    resolver.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const dialog = (
    <Modal
      opened={request !== null}
      onClose={() => settle(false)}
      title={<Text fw={700}>{request?.title}</Text>}
      centered
      radius="md"
      size="sm"
    >
      <Text size="sm">{request?.text}</Text>
      <Group justify="flex-end" mt="lg">
        {/* Focus starts on Cancel so a stray Enter never reboots anything. */}
        <Button variant="default" onClick={() => settle(false)} data-autofocus>
          Cancel
        </Button>
        <Button color="red" onClick={() => settle(true)}>
          {request?.confirm}
        </Button>
      </Group>
    </Modal>
  );
  return [confirm, dialog];
}
