import { Stack, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';

/** What a screen or list shows in place of its loader while a read waits for the connection. */
export function OfflineWait({ what = 'This screen' }: { what?: string }) {
  return (
    <Stack align="center" gap={4} py="md">
      <IconWifiOff size={22} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text size="sm" c="dimmed" ta="center">
        Offline — {what} loads when the connection returns.
      </Text>
    </Stack>
  );
}
