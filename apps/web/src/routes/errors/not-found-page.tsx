import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** Unknown paths: say so plainly and offer the way home. */
export function NotFoundPage() {
  useDocumentTitle('Not found');
  return (
    <Center mih="100dvh" px="md">
      <Stack align="center" gap="sm" maw={420}>
        <Text fz={64} fw={800} c="dimmed" lh={1}>
          404
        </Text>
        <Title order={1} size="h2" ta="center">
          Page not found
        </Title>
        <Text c="dimmed" ta="center">
          The address you opened does not exist in Fleet Console.
        </Text>
        <Button component={Link} to="/" mt="md">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
