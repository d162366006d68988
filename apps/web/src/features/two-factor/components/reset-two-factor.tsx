import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ApiError } from '@/lib/api/api-error.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { resetTwoFactor } from '../api/two-factor.ts';

/** On another account's screen: an admin removes its second factor (a lost phone); audited by the server. */
export function ResetTwoFactor({ accountPath, name }: { accountPath: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);

  const reset = () => {
    setPending(true);
    resetTwoFactor(accountPath).then(
      () => {
        setPending(false);
        setConfirming(false);
        notifySuccess(`Two-factor authentication reset for ${name}`);
      },
      (error: unknown) => {
        setPending(false);
        setConfirming(false);
        const text = error instanceof ApiError ? error.userMessage : undefined;
        notifyError('Two-factor authentication not reset', text);
      },
    );
  };

  return (
    <Paper withBorder radius="md" p="lg" maw={720} component="section" aria-labelledby="reset-two-factor-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="reset-two-factor-title">
          Two-factor authentication
        </Title>
        <Text size="sm" c="dimmed">
          Resetting removes the account&apos;s authenticator and recovery codes: it signs in with its password alone
          until it sets one up again.
        </Text>
        <Group>
          {confirming ? (
            <>
              <Button color="red" loading={pending} onClick={reset}>
                Confirm reset
              </Button>
              <Button variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </>
          ) : (
            <Button variant="light" color="red" onClick={() => setConfirming(true)}>
              Reset two-factor
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
