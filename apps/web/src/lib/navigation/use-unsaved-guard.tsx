import { useEffect } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker } from 'react-router';

/**
 * While `dirty`, leaving the screen asks first: a link or Back inside the console opens a confirm
 * (Stay / Leave without saving), and closing or reloading the tab gets the browser's own question
 * (`beforeunload`). Render the returned element. Needs the data router (app.tsx).
 */
export function useUnsavedGuard(dirty: boolean, what: string) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  // Saved or undone while the question was open: nothing is lost any more, so go on.
  useEffect(() => {
    if (blocker.state === 'blocked' && !dirty) blocker.proceed();
  }, [blocker, dirty]);

  return (
    <Modal
      opened={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title={<Text fw={700}>Leave without saving?</Text>}
      centered
    >
      <Text size="sm">{what} If you leave now, they are lost.</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          Stay
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </Group>
    </Modal>
  );
}
