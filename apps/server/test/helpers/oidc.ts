// A real OpenID Connect provider (the `oidc-provider` package) on loopback for single sign-on
// tests, and a driver that walks its login page like a browser would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type JWK, type JWTPayload } from 'jose';
import Provider from 'oidc-provider';

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** Where the provider's end-session may send the browser back to. */
  post_logout_redirect_uris?: string[];
}

export interface Person {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
}

export interface Idp {
  issuer: string;
  /** The people who can sign in, by subject. */
  people: Map<string, Person>;
  /** Replaces the ID token the token endpoint answers (tests of what the server must refuse). */
  rewrite: ((claims: JWTPayload, original: string) => Promise<string>) | null;
  /** Signs claims with the provider's current key, as the provider would. */
  sign(claims: JWTPayload): Promise<string>;
  /** (Re)starts the provider with these clients and a new signing key (a key rotation). */
  configure(clients: IdpClient[]): Promise<void>;
  kid(): string;
  close(): Promise<void>;
}

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let keyCount = 0;

/** Starts the provider's listener; `configure` gives it clients (once the server's URL is known). */
export async function startIdp(): Promise<Idp> {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const people = new Map<string, Person>();
  let signing: { jwk: JWK; key: KeyPair['privateKey'] } | null = null;
  const idp: Idp = {
    issuer,
    people,
    rewrite: null,
    kid: () => signing!.jwk.kid!,
    async sign(claims) {
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: signing!.jwk.kid }).sign(signing!.key);
    },
    async configure(clients) {
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const jwk = { ...(await exportJWK(privateKey)), kid: `key-${++keyCount}`, alg: 'RS256', use: 'sig' };
      signing = { jwk, key: privateKey };
      const provider = new Provider(issuer, {
        clients,
        jwks: { keys: [jwk] },
        cookies: { keys: ['fleet-test-cookie-key'] },
        conformIdTokenClaims: false,
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
        pkce: { required: () => true },
        findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...people.get(sub) }) }),
        // A first-party client: no consent screen.
        loadExistingGrant: async (ctx) => {
          const grant = new ctx.oidc.provider.Grant({
            clientId: ctx.oidc.client!.clientId,
            accountId: ctx.oidc.session!.accountId!,
          });
          grant.addOIDCScope('openid email profile');
          await grant.save();
          return grant;
        },
      });
      provider.use(async (ctx, next) => {
        await next();
        const body = ctx.body as { id_token?: string } | undefined;
        if (ctx.path === '/token' && body?.id_token && idp.rewrite) {
          body.id_token = await idp.rewrite(decodeJwt(body.id_token), body.id_token);
        }
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return idp;
}

/** A fetch that keeps cookies per origin and never follows redirects. */
function browser() {
  const jar = new Map<string, Map<string, string>>();
  return async (url: string, init: RequestInit = {}) => {
    const origin = new URL(url).origin;
    const cookies = jar.get(origin) ?? new Map<string, string>();
    jar.set(origin, cookies);
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    return { res, location: location ? new URL(location, url).toString() : null };
  };
}

/**
 * Signs in through a provider like a person would: the server's start, the provider's login page
 * (`login` as the subject), back to the server's callback. Answers where the callback sent the
 * console (`/auth/sso?code=…` or `?error=…`). `tamper` may change the authorization request.
 */
export async function walkSignIn(
  serverUrl: string,
  providerId: string,
  login: string,
  tamper?: (authorize: URL) => void,
): Promise<URL> {
  const go = browser();
  const start = await go(`${serverUrl}/api/v1/sso/${providerId}/start?redirect=/device`);
  if (start.res.status !== 302 || !start.location) throw new Error(`start answered ${start.res.status}`);
  const authorize = new URL(start.location);
  tamper?.(authorize);
  let next: string | null = authorize.toString();
  for (let hop = 0; hop < 10 && next; hop++) {
    if (next.startsWith(`${serverUrl}/api/v1/sso/callback`)) {
      const done = await go(next);
      return new URL(done.location!);
    }
    const step = await go(next);
    if (step.res.status === 200 && /\/interaction\//.test(next)) {
      const body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      next = (await go(next, { method: 'POST', headers: form, body })).location;
    } else {
      next = step.location;
    }
  }
  throw new Error(`the sign-in did not come back to the server (${next})`);
}
