import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

/** The spec's deletion texts (core §5). */
export const CONFIRM_DELETE_TEXT = {
  title: 'Are you sure?',
  text: "You won't be able to revert this!",
  confirm: 'Yes, delete it!',
  cancel: 'Cancel',
} as const;

type Confirm = () => Promise<boolean>;

const ConfirmDeleteContext = createContext<Confirm | null>(null);

/** Hosts the one deletion dialog; mounted once in the app shell. */
export function ConfirmDeleteProvider({ children }: { children: ReactNode }) {
  const [opened, setOpened] = useState(false);
  const resolver = useRef<((confirmed: boolean) => void) | null>(null);

  const settle = useCallback((confirmed: boolean) => {
    resolver.current?.(confirmed);
    resolver.current = null;
    setOpened(false);
  }, []);

  const confirm = useCallback<Confirm>(() => {
    // A second request while one is open cancels the first rather than leaving it hanging.
    resolver.current?.(false);
    setOpened(true);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  return (
    <ConfirmDeleteContext.Provider value={confirm}>
      {children}
      <Modal
        opened={opened}
        onClose={() => settle(false)}
        title={
          <Text fw={700} size="lg">
            {CONFIRM_DELETE_TEXT.title}
          </Text>
        }
        centered
        radius="md"
        size="sm"
      >
        <Text c="dimmed">{CONFIRM_DELETE_TEXT.text}</Text>
        <Group justify="flex-end" mt="lg">
          {/* Focus starts on Cancel so a stray Enter never deletes anything. */}
          <Button variant="default" onClick={() => settle(false)} data-autofocus>
            {CONFIRM_DELETE_TEXT.cancel}
          </Button>
          <Button color="red" onClick={() => settle(true)}>
            {CONFIRM_DELETE_TEXT.confirm}
          </Button>
        </Group>
      </Modal>
    </ConfirmDeleteContext.Provider>
  );
}

/**
 * Returns `confirmDelete()`, which opens the spec's deletion dialog and resolves true only
 * when the user chooses 'Yes, delete it!'. Usage: `if (await confirmDelete()) remove(name)`.
 */
export function useConfirmDelete(): Confirm {
  const confirm = useContext(ConfirmDeleteContext);
  if (confirm === null) throw new Error('useConfirmDelete needs ConfirmDeleteProvider (mounted by the app shell)');
  return confirm;
}
