import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { WebhooksView } from '@/features/webhooks/components/webhooks-view.tsx';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /alerts/webhooks: the active entity's webhooks (issue 29), for admins with all access. */
export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/alerts" size="sm">
        ← Alerts
      </Anchor>
      <Title order={2}>Webhooks</Title>
      <WebhooksView />
    </Stack>
  );
}
