import { api } from '@/lib/api/api.ts';
import { session } from '@/lib/session/session.ts';

/**
 * Signs out: tells the server to revoke the refresh token (POST /api/v1/logout with it as
 * bearer), then clears the session without waiting, since a failed revoke must not keep anyone in.
 */
export function logout(): void {
  const { refreshToken } = session.getSnapshot();
  if (refreshToken) {
    api.post('logout', undefined, { auth: { bearer: refreshToken }, notify: false }).catch(() => undefined);
  }
  session.signOut('logout');
}
