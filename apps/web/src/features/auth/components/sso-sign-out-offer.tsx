import { useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { forgetSignOut, signedOutOf, ssoEndSessionUrl } from '../api/sso-sign-out.ts';

/**
 * After signing out of a session that began at an identity provider: the offer to end the
 * provider's session too (the server sends the browser to its end-session page, which comes
 * back here). Signing out of the console alone leaves the provider's session as it was.
 */
export function SsoSignOutOffer() {
  const [provider] = useState(signedOutOf);
  if (!provider) return null;
  return (
    <Text size="sm" c="dimmed" mt="lg" ta="center">
      You signed out of Fleet Console.{' '}
      <Anchor href={ssoEndSessionUrl(provider)} onClick={forgetSignOut}>
        Sign out of your identity provider too
      </Anchor>
    </Text>
  );
}
