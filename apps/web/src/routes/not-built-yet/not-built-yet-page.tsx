import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** The one honest stand-in for screens a later release delivers: their title and nothing fake. */
export function NotBuiltYetPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="sm" py="xl">
          <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
            <IconTools size={26} stroke={1.6} />
          </ThemeIcon>
          <Text fw={600}>Not built yet</Text>
          <Text c="dimmed" ta="center">
            This screen arrives in a later release.
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
