import { Stack, Title } from '@mantine/core';
import { AlertsView } from '@/features/alerts/components/alerts-view.tsx';
import { useEntities } from '@/features/entities/api/get-entities.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /salerts: every entity's alerts for the superadmin, with an entity filter (issue 29). */
export function LandlordAlertsPage() {
  useDocumentTitle('Alerts');
  const entities = useEntities();
  return (
    <Stack gap="md">
      <Title order={2}>Alerts</Title>
      <AlertsView entities={entities.data?.map((e) => e.name) ?? []} />
    </Stack>
  );
}
