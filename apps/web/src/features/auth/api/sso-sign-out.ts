/**
 * Which identity provider the console's session came from, so that signing out can offer the
 * provider's sign-out too (docs/sso.md). Kept beside the session in localStorage; a session that
 * began with a password forgets it.
 */
const SIGNED_IN_WITH = 'fleet.ssoProvider';
/** Set by the console's sign-out for the login page's offer; gone once taken up or signed in. */
const SIGNED_OUT_OF = 'fleet.ssoSignedOut';

function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // No storage (a locked-down browser): the offer is simply not made.
  }
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** A sign-in finished: through `provider`, or with a password (`null`). */
export function rememberSignIn(provider: string | null): void {
  store(SIGNED_IN_WITH, provider);
  store(SIGNED_OUT_OF, null);
}

/** The person signed out: a session from a provider leaves the offer to sign out of it too. */
export function rememberSignOut(): void {
  const provider = read(SIGNED_IN_WITH);
  store(SIGNED_IN_WITH, null);
  store(SIGNED_OUT_OF, provider);
}

/** The provider the person just signed out of the console from, if any. */
export const signedOutOf = (): string | null => read(SIGNED_OUT_OF);

/** The offer is taken up (or declined by signing in again). */
export const forgetSignOut = (): void => store(SIGNED_OUT_OF, null);

/** The server's redirect to the provider's end-session endpoint. */
export const ssoEndSessionUrl = (id: string) => `/api/v1/sso/${encodeURIComponent(id)}/end-session`;
