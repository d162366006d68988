import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error.ts';

/** What the discovery document must tell (OpenID Connect Discovery 1.0). */
const DiscoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  end_session_endpoint: z.url().optional(),
});
export type Discovery = z.infer<typeof DiscoverySchema>;

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** How long a discovery document is trusted before it is read again. */
const DISCOVERY_TTL_MS = 5 * 60_000;
const TIMEOUT_MS = 5_000;
/** ID tokens signed otherwise (HS256 with the secret, `none`) are refused. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Clock skew allowed between the provider and this server. */
const CLOCK_TOLERANCE_S = 30;

const discovered = new Map<string, { at: number; doc: Discovery; keys: KeySet }>();

export const providerDown = (why: string) =>
  new HttpError(502, 'The identity provider cannot be reached. Try again later, or sign in with your password.', why);

/** Every refusal of the provider's answer looks the same to the person; the reason goes to the audit log. */
export const ssoRefused = (why: string) => new HttpError(401, 'Single sign-on failed', why);

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw providerDown(`${new URL(url).origin}: ${(err as Error).message}`);
  }
  const body = await res.json().catch(() => undefined);
  return { status: res.status, body };
}

/**
 * The issuer's discovery document and its published keys, cached for a few minutes. The document
 * must name the configured issuer exactly. The key set is fetched again whenever a token names a
 * key it does not hold (a rotation), at most once per ID token: tokens only ever come from the
 * provider's token endpoint, so a stranger cannot make this server fetch in a loop.
 */
export async function discover(issuer: string): Promise<{ doc: Discovery; keys: KeySet }> {
  const hit = discovered.get(issuer);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit;
  const { status, body } = await getJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  const parsed = DiscoverySchema.safeParse(body);
  if (status !== 200 || !parsed.success) throw providerDown(`${issuer}: no valid discovery document (${status})`);
  if (parsed.data.issuer !== issuer)
    throw providerDown(`${issuer}: the discovery document names ${parsed.data.issuer}`);
  const keys =
    hit && hit.doc.jwks_uri === parsed.data.jwks_uri
      ? hit.keys
      : createRemoteJWKSet(new URL(parsed.data.jwks_uri), {
          cooldownDuration: 0,
          cacheMaxAge: 10 * 60_000,
          timeoutDuration: TIMEOUT_MS,
        });
  const entry = { at: Date.now(), doc: parsed.data, keys };
  discovered.set(issuer, entry);
  return entry;
}

const random = () => randomBytes(32).toString('base64url');

/** State, nonce and PKCE verifier for one sign-in. */
export function newFlowSecrets() {
  return { state: random(), nonce: random(), codeVerifier: random() };
}

export interface ClientSettings {
  issuer: string;
  client_id: string;
  client_secret: string;
}

/** The provider's authorization URL for the authorization code flow with PKCE (S256). */
export function authorizationUrl(
  doc: Discovery,
  client: ClientSettings,
  flow: { state: string; nonce: string; codeVerifier: string; redirectUri: string },
): string {
  const url = new URL(doc.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', flow.redirectUri);
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('state', flow.state);
  url.searchParams.set('nonce', flow.nonce);
  url.searchParams.set('code_challenge', createHash('sha256').update(flow.codeVerifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** Exchanges the authorization code at the token endpoint (client_secret_basic) for the ID token. */
export async function exchangeCode(
  doc: Discovery,
  client: ClientSettings,
  flow: { code: string; codeVerifier: string; redirectUri: string },
): Promise<string> {
  const basic = Buffer.from(
    `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`,
  ).toString('base64');
  const { status, body } = await getJson(doc.token_endpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: flow.code,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.codeVerifier,
    }),
  });
  const idToken = (body as { id_token?: unknown } | undefined)?.id_token;
  if (status !== 200 || typeof idToken !== 'string') {
    const error = (body as { error?: unknown } | undefined)?.error;
    throw ssoRefused(`The token endpoint answered ${status}${typeof error === 'string' ? ` (${error})` : ''}`);
  }
  return idToken;
}

/**
 * Verifies an ID token: its signature against the issuer's published keys, then issuer, audience
 * (and `azp` when there are several), expiry and issue time with a small tolerance, and the nonce
 * this sign-in sent. `now` is the clock (tests inject one).
 */
export async function verifyIdToken(
  idToken: string,
  expect: { issuer: string; clientId: string; nonce: string; keys: KeySet; now?: Date },
): Promise<JWTPayload & { sub: string }> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, expect.keys, {
      issuer: expect.issuer,
      audience: expect.clientId,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['sub', 'exp', 'iat'],
      ...(expect.now ? { currentDate: expect.now } : {}),
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWKSTimeout) throw providerDown(`The provider's keys: ${err.message}`);
    if (err instanceof joseErrors.JOSEError) throw ssoRefused(`ID token refused: ${err.code}: ${err.message}`);
    throw providerDown(`The provider's keys: ${(err as Error).message}`);
  }
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expect.clientId) {
    throw ssoRefused('ID token refused: azp is not this client');
  }
  if (payload.nonce !== expect.nonce) throw ssoRefused('ID token refused: wrong nonce');
  return payload as JWTPayload & { sub: string };
}
