import { useEffect, useState } from 'react';
import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useOnline } from '@/lib/use-online.ts';
import { screenFailure, type ScreenFailure } from './screen-failure.ts';

const WORDS: Record<ScreenFailure, { title: string; text: string }> = {
  offline: {
    title: 'You are offline',
    text: 'This screen could not be opened without a connection. It opens when the connection returns.',
  },
  stale: {
    title: 'A new version is available',
    text: 'Fleet Console was updated while this page was open. Reload to continue.',
  },
  crash: {
    title: 'Something went wrong',
    text: 'This screen ran into an unexpected problem. Reloading usually helps.',
  },
};

/** A friendly message and a way out instead of a blank page. */
export function ErrorFallback({ error, fullPage = false }: { error: unknown; fullPage?: boolean }) {
  const online = useOnline();
  // Judged once, when caught: the connection coming back must not turn it into 'new version'.
  const [kind] = useState(() => screenFailure(error, online && navigator.onLine));
  // A failed import() stays failed for the page's life, so the screen opens by reloading.
  useEffect(() => {
    if (kind === 'offline' && online) window.location.reload();
  }, [kind, online]);

  const words = WORDS[kind];
  return (
    <Center mih={fullPage ? '100dvh' : 320} px="md" role="alert">
      <Stack align="center" gap="sm" maw={460}>
        <Title order={1} size="h3" ta="center">
          {words.title}
        </Title>
        <Text c="dimmed" ta="center">
          {words.text}
        </Text>
        <Group mt="md">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button variant="default" component="a" href="/">
            Go home
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
