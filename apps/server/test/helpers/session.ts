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

/**
 * Creates an account through the landlord's path (an admin or a landlord gets all access) and
 * signs it in. A landlord (`subtype: 'sadmin'`, no entity) of a file's own, with its own password,
 * keeps the landlord-level entries and sessions it leaves the file's on a shared server, where the
 * bootstrap ADMIN's are every file's.
 */
export async function createAccount(
  s: Pick<TestServer, 'request'>,
  root: string,
  { password = 'password-1', ...o }: { name: string; entity?: string; subtype: string; password?: string },
) {
  const res = await s.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: {
        ...o,
        email: `${o.name}@x.test`,
        password,
        access: o.subtype === 'admin' || o.subtype === 'sadmin' ? ['all'] : [],
      },
    },
  });
  if (res.status !== 201) throw new Error(`account ${o.name}: ${res.status} ${res.text}`);
  return { name: o.name, ...(await signIn(s, o.name, password)) };
}
