import { Paper, Stack, Title } from '@mantine/core';
import { AlertsView } from './alerts-view.tsx';

/** A device's alerts on its screen: every status, newest first, with acknowledge and clear. */
export function DeviceAlerts({ name }: { name: string }) {
  return (
    <Paper withBorder radius="md" p="lg" id="alerts">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Alerts
        </Title>
        <AlertsView device={name} />
      </Stack>
    </Paper>
  );
}
