import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { AlertRulesView } from '@/features/alerts/components/alert-rules-view.tsx';
import { hasAllAccess, isLandlord } from '@/lib/session/jwt.ts';
import { useSession } from '@/lib/session/use-session.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /alerts/rules: the entity's alert rules; admins with all access and superadmins edit them (issue 29). */
export function AlertRulesPage() {
  useDocumentTitle('Alert rules');
  const { claims } = useSession();
  const editable = isLandlord(claims) || (claims?.subtype === 'admin' && hasAllAccess(claims));
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/alerts" size="sm">
        ← Alerts
      </Anchor>
      <Title order={2}>Alert rules</Title>
      <AlertRulesView editable={editable} />
    </Stack>
  );
}
