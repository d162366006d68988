import { notFound } from '../../lib/http-error.ts';
import type { Deps } from '../deps.ts';
import { discover } from './oidc-client.ts';
import { findProvider } from './sso-providers.ts';

/**
 * Where "sign out of the provider too" goes after the console's own sign-out (OpenID Connect
 * RP-Initiated Logout 1.0): the provider's end-session endpoint with this client's id and the
 * console's login page to come back to, or that login page when the provider publishes no such
 * endpoint or cannot be reached (the console's session is over either way).
 */
export async function endSessionUrl(deps: Deps, providerId: string, loginUrl: string): Promise<string> {
  const provider = await findProvider(deps, providerId);
  if (!provider) throw notFound('Single sign-on provider');
  const doc = await discover(provider.issuer).then(
    (found) => found.doc,
    () => null,
  );
  if (!doc?.end_session_endpoint) return loginUrl;
  const url = new URL(doc.end_session_endpoint);
  url.searchParams.set('client_id', provider.client_id);
  url.searchParams.set('post_logout_redirect_uri', loginUrl);
  return url.toString();
}
