import { api } from '@/lib/api/api.ts';
import { session } from '@/lib/session/session.ts';
import { rememberSignOut } from './sso-sign-out.ts';

/**
 * Signs out: tells the server to revoke the refresh token (POST /api/v1/logout with it as
 * bearer), then clears the session without waiting, since a failed revoke must not keep anyone in.
 * A session from an identity provider leaves the login page an offer to sign out of it too.
 */
export function logout(): void {
  const { refreshToken } = session.getSnapshot();
  if (refreshToken) {
    api.post('logout', undefined, { auth: { bearer: refreshToken }, notify: false }).catch(() => undefined);
  }
  rememberSignOut();
  session.signOut('logout');
}
