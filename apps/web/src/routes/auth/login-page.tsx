import { Card, Text, Title } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '@/features/auth/components/login-form.tsx';
import { rememberSignIn } from '@/features/auth/api/sso-sign-out.ts';
import { SsoButtons } from '@/features/auth/components/sso-buttons.tsx';
import { SsoSignOutOffer } from '@/features/auth/components/sso-sign-out-offer.tsx';
import { postLoginPath } from '@/lib/navigation/redirect-target.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';

/** /auth/login: the welcome card; after sign-in go to the redirect target or the role's home. */
export function LoginPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const [params] = useSearchParams();

  return (
    <Card withBorder shadow="sm" radius="md" padding="xl">
      <Title order={2} size="h3">
        Welcome
      </Title>
      <Text c="dimmed" size="sm" mt={4} mb="lg">
        Sign in to manage your devices.
      </Text>
      <LoginForm
        onSignedIn={(session) => {
          rememberSignIn(null);
          void navigate(postLoginPath(params.get('redirect'), session.claims), { replace: true });
        }}
      />
      <SsoButtons redirect={params.get('redirect')} />
      <SsoSignOutOffer />
    </Card>
  );
}
