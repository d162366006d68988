import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CONFIRM_DELETE_TEXT } from '@/components/ui/confirm-delete.tsx';

/** What "Delete all devices" would remove: how many devices, and the word that confirms it. */
export interface DeleteAllRequest {
  count: number;
  /** The entity whose devices go; null: every entity's (the landlord's list without an entity). */
  entity: string | null;
}

/** What the user types when no single entity is concerned. */
export const EVERY_ENTITY_WORD = 'all entities';

/**
 * The confirmation of "Delete all devices" (issue 25): the spec's question and buttons, plus how
 * many devices go and a field where the user types the entity's name; the delete button is
 * enabled only once it matches. Returns `confirm(request)`, true only on the delete button, and
 * the dialog to render.
 */
export function useConfirmDeleteAll(): [(request: DeleteAllRequest) => Promise<boolean>, ReactNode] {
  const [request, setRequest] = useState<DeleteAllRequest | null>(null);
  const [typed, setTyped] = useState('');
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
    setRequest(null);
  }, []);

  const confirm = useCallback((next: DeleteAllRequest) => {
    resolver.current?.(false);
    setTyped('');
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const word = request?.entity ?? EVERY_ENTITY_WORD;
  const matches = typed.trim() === word;
  const whose = request?.entity ? `of ${request.entity}` : 'of every entity';
  const dialog = (
    <Modal
      opened={request !== null}
      onClose={() => settle(false)}
      title={
        <Text fw={700} size="lg">
          {CONFIRM_DELETE_TEXT.title}
        </Text>
      }
      centered
      radius="md"
      size="md"
    >
      {request && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (matches && request.count > 0) settle(true);
          }}
        >
          <Stack gap="md">
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} p="sm">
              <Text size="sm" fw={600}>
                {request.count === 0
                  ? `There are no devices ${whose} to delete.`
                  : `${request.count === 1 ? 'The one device' : `All ${request.count} devices`} ${whose} will be deleted, with their command history and credentials.`}
              </Text>
            </Alert>
            <Text c="dimmed">{CONFIRM_DELETE_TEXT.text}</Text>
            <TextInput
              label={
                <>
                  Type <b>{word}</b> to confirm
                </>
              }
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              disabled={request.count === 0}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => settle(false)}>
                {CONFIRM_DELETE_TEXT.cancel}
              </Button>
              <Button type="submit" color="red" disabled={!matches || request.count === 0}>
                {CONFIRM_DELETE_TEXT.confirm}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
  return [confirm, dialog];
}
