import { useEffect, useState } from 'react';
import { Button, Divider, Stack } from '@mantine/core';
import { listSsoProviders, ssoStartUrl } from '../api/sso.ts';

/**
 * "Sign in with {provider}" for every configured identity provider, below the spec's form
 * (docs/sso.md). Each is a plain link: the server starts the sign-in and sends the browser on.
 * Nothing shows while the list loads, when there is none, or when it cannot be read.
 */
export function SsoButtons({ redirect }: { redirect: string | null }) {
  const [providers, setProviders] = useState<Array<{ id: string; label: string }>>([]);
  useEffect(() => {
    const abort = new AbortController();
    listSsoProviders(abort.signal).then(setProviders, () => setProviders([]));
    return () => abort.abort();
  }, []);
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm" mt="lg">
      <Divider label="or" labelPosition="center" />
      {providers.map((p) => (
        <Button key={p.id} component="a" href={ssoStartUrl(p.id, redirect)} variant="default" fullWidth>
          Sign in with {p.label}
        </Button>
      ))}
    </Stack>
  );
}
