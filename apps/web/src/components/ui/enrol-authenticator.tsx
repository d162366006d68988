import { useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { QrCode } from './qr-code.tsx';

export interface Enrolment {
  secret: string;
  otpauth_uri: string;
}

interface EnrolAuthenticatorProps {
  enrolment: Enrolment;
  /** Sends the first code; rejects (with the server's message) when it does not match. */
  confirm(code: string): Promise<void>;
  failureText(error: unknown): string;
}

/** The QR code and the secret as text for an authenticator app, then its first code. */
export function EnrolAuthenticator({ enrolment, confirm, failureText }: EnrolAuthenticatorProps) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) return setFailure('Enter the code your app shows.');
    setPending(true);
    setFailure(null);
    confirm(code.trim()).then(
      () => setPending(false),
      (error: unknown) => {
        setPending(false);
        setFailure(failureText(error));
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">Scan this code with your authenticator app, or type the secret into it.</Text>
        <Group align="flex-start" gap="lg">
          <QrCode value={enrolment.otpauth_uri} label="QR code for your authenticator app" />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Secret
            </Text>
            <Code data-testid="totp-secret">{enrolment.secret}</Code>
          </Stack>
        </Group>
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Code from the app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" loading={pending}>
          Confirm
        </Button>
      </Stack>
    </form>
  );
}
