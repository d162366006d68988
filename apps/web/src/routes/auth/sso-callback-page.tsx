import { useEffect, useRef, useState } from 'react';
import { Anchor, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { startSession } from '@/features/auth/api/sign-in.ts';
import { exchangeSsoCode } from '@/features/auth/api/sso.ts';
import { rememberSignIn } from '@/features/auth/api/sso-sign-out.ts';
import { ApiError } from '@/lib/api/api-error.ts';
import { LOGIN_PATH, postLoginPath } from '@/lib/navigation/redirect-target.ts';
import { useDocumentTitle } from '@/lib/use-document-title.ts';
import { SignInFailure } from '@/features/auth/components/sign-in-failure.tsx';

/**
 * /auth/sso: where the server sends the browser back from the identity provider, with a one-time
 * code (exchanged here for the session, once) or the reason the sign-in failed.
 */
export function SsoCallbackPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const code = params.get('code');
  const [failure, setFailure] = useState<string | null>(code ? null : (params.get('error') ?? 'Single sign-on failed'));
  // The code is spent by its first exchange: a second effect run (strict mode) must not send it again.
  const sent = useRef(false);
  useEffect(() => {
    if (!code || sent.current) return;
    sent.current = true;
    exchangeSsoCode(code)
      .then(startSession)
      .then(
        (session) => {
          rememberSignIn(params.get('provider'));
          void navigate(postLoginPath(params.get('redirect'), session.claims), { replace: true });
        },
        (error: unknown) => setFailure(error instanceof ApiError ? error.userMessage : 'Single sign-on failed'),
      );
  }, [code, navigate, params]);

  return (
    <Card withBorder shadow="sm" radius="md" padding="xl">
      <Title order={2} size="h3">
        Welcome
      </Title>
      {failure ? (
        <Stack gap="md" mt="lg">
          <SignInFailure>{failure}</SignInFailure>
          <Anchor component={Link} to={LOGIN_PATH}>
            Back to sign in
          </Anchor>
        </Stack>
      ) : (
        <Stack align="center" gap="sm" mt="lg">
          <Loader size="sm" />
          <Text c="dimmed" size="sm">
            Signing you in…
          </Text>
        </Stack>
      )}
    </Card>
  );
}
