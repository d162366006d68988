import { Stack, Title } from '@mantine/core';
import { AlertsView } from '@/features/alerts/components/alerts-view.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /alerts: the active entity's alerts with filters, acknowledge and clear (issue 29). */
export function AlertsPage() {
  useDocumentTitle('Alerts');
  return (
    <Stack gap="md">
      <Title order={2}>Alerts</Title>
      <AlertsView />
    </Stack>
  );
}
