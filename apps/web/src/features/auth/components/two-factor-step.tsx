import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import type { TwoFactorChallenge, TwoFactorEnrolment } from '@fleet/shared/schemas/two-factor';
import { EnrolAuthenticator } from '@/components/ui/enrol-authenticator.tsx';
import { RecoveryCodes } from '@/components/ui/recovery-codes.tsx';
import { ApiError } from '@/lib/api/api-error.ts';
import type { SignedInSession } from '@/lib/session/session-store.ts';
import { startSession } from '../api/sign-in.ts';
import { confirmSignInEnrolment, finishSignIn, startSignInEnrolment } from '../api/two-factor-sign-in.ts';
import { SignInFailure } from './sign-in-failure.tsx';

const failureText = (error: unknown) =>
  error instanceof ApiError ? error.userMessage : 'Sign-in failed. Please try again.';

interface TwoFactorStepProps {
  challenge: TwoFactorChallenge;
  onSignedIn(session: SignedInSession): void;
  /** Back to the login form (the challenge expired, or another account). */
  onCancel(): void;
}

/** After the login form, for an account with a second factor: its code, or its enrolment when required. */
export function TwoFactorStep({ challenge, onSignedIn, onCancel }: TwoFactorStepProps) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [recovery, setRecovery] = useState<{ codes: string[]; done(): void } | null>(null);

  const run = (work: Promise<unknown>) => {
    setPending(true);
    setFailure(null);
    work.catch((error: unknown) => {
      setPending(false);
      setFailure(failureText(error));
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!code.trim()) return setFailure('Enter the code from your authenticator app.');
    run(finishSignIn(challenge.challenge, code.trim()).then(startSession).then(onSignedIn));
  };

  const back = (
    <Anchor component="button" type="button" size="sm" onClick={onCancel}>
      Back to sign-in
    </Anchor>
  );

  if (recovery) return <RecoveryCodes codes={recovery.codes} onDone={recovery.done} doneLabel="Continue" />;

  if (challenge.two_factor === 'enrol') {
    return (
      <Stack gap="md">
        <Alert color="blue" variant="light" title="Two-factor authentication required">
          {challenge.message}
        </Alert>
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        {enrolment ? (
          <EnrolAuthenticator
            enrolment={enrolment}
            failureText={failureText}
            confirm={async (first) => {
              const answer = await confirmSignInEnrolment(challenge.challenge, first);
              setRecovery({ codes: answer.recovery_codes, done: () => void startSession(answer).then(onSignedIn) });
            }}
          />
        ) : (
          <Button loading={pending} onClick={() => run(startSignInEnrolment(challenge.challenge).then(setEnrolment))}>
            Set up authenticator
          </Button>
        )}
        {back}
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">{challenge.message}</Text>
        {failure && <SignInFailure>{failure}</SignInFailure>}
        <TextInput
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          autoFocus
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" fullWidth loading={pending}>
          Verify
        </Button>
        {back}
      </Stack>
    </form>
  );
}
