import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';

// A failed lazy import usually means a new release replaced the old chunks: reloading fixes it.
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

/** A friendly message and a way out instead of a blank page. */
export function ErrorFallback({ error, fullPage = false }: { error: unknown; fullPage?: boolean }) {
  const stale = isChunkLoadError(error);
  return (
    <Center mih={fullPage ? '100dvh' : 320} px="md" role="alert">
      <Stack align="center" gap="sm" maw={460}>
        <Title order={1} size="h3" ta="center">
          {stale ? 'A new version is available' : 'Something went wrong'}
        </Title>
        <Text c="dimmed" ta="center">
          {stale
            ? 'Fleet Console was updated while this page was open. Reload to continue.'
            : 'This screen ran into an unexpected problem. Reloading usually helps.'}
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
