import { useState, type FormEvent } from 'react';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { SignedInSession } from '@/lib/session/session-store.ts';
import { signIn } from '../api/sign-in.ts';
import { loginErrorMessage } from './login-error-message.ts';
import { validateLogin, type LoginFieldErrors } from './validate-login.ts';

interface LoginFormProps {
  onSignedIn(session: SignedInSession): void;
}

/** Username/password form with the spec's validation and failure texts (core §5, §8). */
export function LoginForm({ onSignedIn }: LoginFormProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  // Errors appear on submit, then follow the user's typing so a fixed field clears at once.
  const [submitted, setSubmitted] = useState(false);
  // Plain state rather than a query mutation: the login page stays free of the query cache.
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const revalidate = (nextUsername: string, nextPassword: string) => {
    if (!submitted) return;
    const result = validateLogin(nextUsername, nextPassword);
    setErrors(result.ok ? {} : result.errors);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const result = validateLogin(username, password);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    setPending(true);
    signIn(result.request).then(onSignedIn, (error: unknown) => {
      setPending(false);
      setFailure(loginErrorMessage(error));
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {failure && (
          <Alert color="red" variant="light" role="alert" title="Sign-in failed">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Username"
          name="username"
          autoComplete="username"
          autoFocus
          withAsterisk
          value={username}
          error={errors.username}
          onChange={(event) => {
            setUsername(event.currentTarget.value);
            revalidate(event.currentTarget.value, password);
          }}
        />
        <PasswordInput
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
