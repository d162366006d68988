import { useEffectEvent, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { TwoFactorChallenge } from '@fleet/shared/schemas/two-factor';
import type { SignedInSession } from '@/lib/session/session-store.ts';
import { signIn } from '../api/sign-in.ts';
import { endLoginHandOff, readLoginDraft } from '../prerender-handoff.ts';
import { loginErrorMessage } from './login-error-message.ts';
import { TwoFactorStep } from './two-factor-step.tsx';
import { validateLogin, type LoginFieldErrors } from './validate-login.ts';
import { SignInFailure } from './sign-in-failure.tsx';

interface LoginFormProps {
  onSignedIn(session: SignedInSession): void;
}

/** Username/password form with the spec's validation and failure texts (core §5, §8). */
export function LoginForm({ onSignedIn }: LoginFormProps) {
  // What the visitor typed on the prerendered page before the console took over, if anything.
  const [draft] = useState(readLoginDraft);
  const [username, setUsername] = useState(draft?.username ?? '');
  const [password, setPassword] = useState(draft?.password ?? '');
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  // Errors appear on submit, then follow the user's typing so a fixed field clears at once.
  const [submitted, setSubmitted] = useState(false);
  // Plain state rather than a query mutation: the login page stays free of the query cache.
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // An account with a second factor: its code step replaces the form until it finishes.
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);

  const revalidate = (nextUsername: string, nextPassword: string) => {
    if (!submitted) return;
    const result = validateLogin(nextUsername, nextPassword);
    setErrors(result.ok ? {} : result.errors);
  };

  const submit = (nextUsername: string, nextPassword: string) => {
    setSubmitted(true);
    const result = validateLogin(nextUsername, nextPassword);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setPending(true);
    signIn(result.request).then(
      (answer) => {
        if (!('two_factor' in answer)) return onSignedIn(answer);
        setPending(false);
        setChallenge(answer);
      },
      (error: unknown) => {
        setPending(false);
        setFailure(loginErrorMessage(error));
      },
    );
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit(username, password);
  };

  // Once the live form is on the page, the prerendered form's last state: the visitor may have
  // typed, or pressed Sign in, while this form was being rendered.
  const takeOver = useEffectEvent(() => {
    const last = endLoginHandOff();
    if (last === null) return;
    // Keystrokes that follow go where the visitor was typing, not to the autofocused username.
    if (last.focused === 'password') passwordRef.current?.focus();
    if (last.focused === 'username') usernameRef.current?.focus();
    setUsername(last.username);
    setPassword(last.password);
    if (last.submitted) submit(last.username, last.password);
  });
  // Once, from an outside source (the replaced page's inputs), in the first commit itself.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- no render-time equivalent exists
  useLayoutEffect(() => takeOver(), []);

  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge}
        onSignedIn={onSignedIn}
        onCancel={() => {
          setChallenge(null);
          setPassword('');
        }}
      />
    );
  }

  return (
    // method="post": should the scripts never load, a plain submit must not put the password in the URL.
    <form method="post" onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {failure && <SignInFailure>{failure}</SignInFailure>}
        <TextInput
          label="Username"
          name="username"
          autoComplete="username"
          ref={usernameRef}
          autoFocus={draft?.focused !== 'password'}
          withAsterisk
          value={username}
          error={errors.username}
          onChange={(event) => {
            setUsername(event.currentTarget.value);
            revalidate(event.currentTarget.value, password);
          }}
        />
        <PasswordInput
          ref={passwordRef}
          label="Password"
          name="password"
          autoComplete="current-password"
          withAsterisk
          value={password}
          error={errors.password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            revalidate(username, event.currentTarget.value);
          }}
        />
        <Button type="submit" fullWidth mt="xs" loading={pending}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
