import type { TestServer } from './server.ts';

/** Signs in and answers the token pair. */
export async function signIn(s: Pick<TestServer, 'request'>, name: string, password: string) {
  const res = await s.request('POST', '/api/v1/login', { body: { name, password } });
  if (res.status !== 200) throw new Error(`sign-in of ${name} failed: ${res.status} ${res.text}`);
  return res.body as { access_token: string; refresh_token: string; entity: string };
}

/** The claims of a JWT, unverified (for assertions only). */
export function claimsOf(token: string) {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

/** Creates an account through the landlord's path (an admin gets all access) and signs it in. */
export async function createAccount(
  s: Pick<TestServer, 'request'>,
  root: string,
  o: { name: string; entity: string; subtype: string },
) {
  const res = await s.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: {
        ...o,
        email: `${o.name}@x.test`,
        password: 'password-1',
        access: o.subtype === 'admin' ? ['all'] : [],
      },
    },
  });
  if (res.status !== 201) throw new Error(`account ${o.name}: ${res.status} ${res.text}`);
  return { name: o.name, ...(await signIn(s, o.name, 'password-1')) };
}

/**
 * A landlord account (superadmin) of the caller's own, `password` its own too, signed in: on a
 * shared server the landlord-level entries and sessions it leaves are the file's, where the
 * bootstrap ADMIN's are every file's.
 */
export async function createLandlord(s: Pick<TestServer, 'request'>, root: string, name: string, password: string) {
  const res = await s.request('POST', '/api/v1/account', {
    token: root,
    body: { document: { name, email: `${name}@x.test`, password, subtype: 'sadmin', access: ['all'] } },
  });
  if (res.status !== 201) throw new Error(`landlord ${name}: ${res.status} ${res.text}`);
  return { name, ...(await signIn(s, name, password)) };
}
