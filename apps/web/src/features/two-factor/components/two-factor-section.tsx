import { useState, type ReactNode } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorEnrolment } from '@fleet/shared/schemas/two-factor';
import { EnrolAuthenticator } from '@/components/ui/enrol-authenticator.tsx';
import { RecoveryCodes } from '@/components/ui/recovery-codes.tsx';
import { ApiError } from '@/lib/api/api-error.ts';
import { notifyError, notifySuccess } from '@/lib/notify.ts';
import { confirmEnrolment, getTwoFactorStatus, startEnrolment } from '../api/two-factor.ts';

const KEY = ['two-factor'] as const;
const failureText = (error: unknown) => (error instanceof ApiError ? error.userMessage : 'Please try again.');

/** Settings: one's own authenticator app (docs/two-factor.md): set up with a QR code, recovery codes once. */
export function TwoFactorSection({ requirement }: { requirement?: ReactNode }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: KEY, queryFn: ({ signal }) => getTwoFactorStatus(signal) });
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);

  const start = () => {
    setStarting(true);
    startEnrolment().then(
      (answer) => {
        setStarting(false);
        setEnrolment(answer);
      },
      (error: unknown) => {
        setStarting(false);
        notifyError('Two-factor authentication could not be set up', failureText(error));
      },
    );
  };

  const finish = () => {
    setCodes(null);
    setEnrolment(null);
    void queryClient.invalidateQueries({ queryKey: KEY });
  };

  let body;
  if (codes) body = <RecoveryCodes codes={codes} onDone={finish} doneLabel="Done" />;
  else if (enrolment)
    body = (
      <EnrolAuthenticator
        enrolment={enrolment}
        failureText={failureText}
        confirm={async (code) => {
          setCodes(await confirmEnrolment(code));
          notifySuccess('Two-factor authentication is on');
          void queryClient.invalidateQueries({ queryKey: KEY });
        }}
      />
    );
  else if (status.data?.enrolled)
    body = (
      <Text size="sm">
        Sign-in asks for a code from your authenticator app. Recovery codes left: {status.data.recovery_codes_left}.
      </Text>
    );
  else if (status.data)
    body = (
      <Group>
        <Button onClick={start} loading={starting}>
          Set up authenticator app
        </Button>
      </Group>
    );

  return (
    <Paper withBorder radius="md" p="lg" maw={720} component="section" aria-labelledby="two-factor-title">
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={2} size="h4" id="two-factor-title">
            Two-factor authentication
          </Title>
          {status.data && (
            <Badge color={status.data.enrolled ? 'green' : 'gray'} variant="light">
              {status.data.enrolled ? 'On' : 'Off'}
            </Badge>
          )}
          {status.data?.required && !status.data.enrolled && (
            <Badge color="orange" variant="light">
              Required
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          A code from an authenticator app after your password. API tokens are not affected.
        </Text>
        {status.isError && <Text size="sm">Two-factor status could not be loaded.</Text>}
        {body}
        {requirement}
      </Stack>
    </Paper>
  );
}
