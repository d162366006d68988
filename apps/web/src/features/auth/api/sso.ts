import { isLoginResponse } from '@fleet/shared/guards';
import type { LoginResponse } from '@fleet/shared/schemas/session';
import { SsoProviderListSchema, type SsoProviderList } from '@fleet/shared/schemas/sso';
import { expectShape } from '@/lib/api/expect-shape.ts';
import { api } from '@/lib/api/api.ts';

/** GET /api/v1/sso/providers: the login page's "Sign in with …" buttons (public; none on failure). */
export async function listSsoProviders(signal?: AbortSignal): Promise<SsoProviderList['data']> {
  const answer = await api.get('sso/providers', {
    auth: 'none',
    notify: false,
    signal,
    parse: (d) => SsoProviderListSchema.parse(d),
  });
  return answer.data;
}

/** Where a provider's button goes: the server starts the sign-in and redirects to the provider. */
export const ssoStartUrl = (id: string, redirect: string | null) =>
  `/api/v1/sso/${encodeURIComponent(id)}/start${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`;

/** POST /api/v1/sso/exchange: the callback's one-time code for the same answer as a password sign-in. */
export function exchangeSsoCode(code: string): Promise<LoginResponse> {
  return api.post(
    'sso/exchange',
    { code },
    { auth: 'none', notify: false, parse: expectShape(isLoginResponse, 'sso') },
  );
}
