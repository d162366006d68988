import { Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { AlertsView } from '@/features/alerts/components/alerts-view.tsx';
import { hasAllAccess, isLandlord } from '@/lib/session/jwt.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /alerts: the active entity's alerts with filters, acknowledge and clear (issue 29). */
export function AlertsPage() {
  useDocumentTitle('Alerts');
  const { claims } = useSession();
  // Webhooks are the entity's admins' with all access (and superadmins'): a link, not a nav item.
  const webhooks = isLandlord(claims) || (claims?.subtype === 'admin' && hasAllAccess(claims));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Alerts</Title>
        <Group gap="xs">
          <Button component={Link} to="/alerts/rules" variant="default">
            Rules
          </Button>
          {webhooks && (
            <Button component={Link} to="/alerts/webhooks" variant="default">
              Webhooks
            </Button>
          )}
        </Group>
      </Group>
      <AlertsView />
    </Stack>
  );
}
