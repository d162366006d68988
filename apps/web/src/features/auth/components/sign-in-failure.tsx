import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';

/** Why a sign-in failed, announced: the password form, the code step and the SSO callback. */
export function SignInFailure({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" variant="light" role="alert" title="Sign-in failed">
      {children}
    </Alert>
  );
}
