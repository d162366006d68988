import net from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { claimsOf, signIn } from '../helpers/session.ts';

// Findings of the attack on the landed server (issue 9), one test each.
const SECRET = 'hardening-test-secret-with-enough-length-0123456789';
let s: TestServer;
let root = '';
const ENTITY = `harden_${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await startServer({ JWT_SECRET: SECRET, BODY_IDLE_TIMEOUT_MS: '400', BODY_TIMEOUT_MS: '1500' });
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  await s.request('POST', '/api/v1/tenant', {
    token: root,
    body: { document: { name: { name: ENTITY, description: '' } } },
  });
});
afterAll(async () => s?.close());

const NUL_MESSAGE = 'Text may not contain the null character (U+0000)';

describe('a null byte', () => {
  it('in the unauthenticated login body answers 400 with a clear message', async () => {
    const res = await s.request('POST', '/api/v1/login', { body: { name: 'a\u0000b', password: 'xxxxxxxx' } });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo).toMatchObject({ code: 400, userMessage: NUL_MESSAGE, details: { name: [NUL_MESSAGE] } });
  });

  it('in a query or path parameter answers 400', async () => {
    for (const path of [
      `/api/v1/tenant/${ENTITY}/device?search=a%00b`,
      `/api/v1/tenant/${ENTITY}/device/%00`,
      `/api/v1/tenant/${ENTITY}%00/device`,
      `/api/v1/device?search=%00`,
    ]) {
      const res = await s.request('GET', path, { token: root });
      expect(res.status, path).toBe(400);
      expect(res.body.errorInfo.userMessage, path).toBe(NUL_MESSAGE);
    }
  });

  it('in a nested field of a create answers 400 naming the field, and nothing is written', async () => {
    const name = 'a0b1c2d3e4f5';
    const res = await s.request('POST', `/api/v1/tenant/${ENTITY}/device`, {
      token: root,
      body: { document: { name, description: 'bad\u0000text', manufacturing_type: 'CC1' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.details).toEqual({ 'document.description': [NUL_MESSAGE] });
    expect((await s.request('GET', `/api/v1/tenant/${ENTITY}/device/${name}`, { token: root })).status).toBe(404);

    const entity = await s.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: 'nul_entity', description: '\u0000' } } },
    });
    expect(entity.status).toBe(400);
    const token = await s.request('GET', `/api/v1/account/${ADMIN.name}/permanent-token?description=x%00y`, {
      token: root,
    });
    expect(token.status).toBe(400);
  });

  it('in an object key is refused too', async () => {
    const res = await s.request('POST', `/api/v1/tenant/${ENTITY}/device`, {
      token: root,
      body: { document: { 'na\u0000me': 'x' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.userMessage).toBe(NUL_MESSAGE);
  });
});

describe('logout', () => {
  it('with the access token ends the whole session: access and refresh token', async () => {
    const pair = await signIn(s, ADMIN.name, ADMIN.password);
    const out = await s.request('POST', '/api/v1/logout', { token: pair.access_token });
    expect(out.status).toBe(204);
    expect((await s.request('GET', `/api/v1/account/${ADMIN.name}`, { token: pair.access_token })).status).toBe(401);
    expect((await s.request('POST', '/api/v1/refresh', { token: pair.refresh_token })).status).toBe(401);
  });

  it('with the refresh token ends the access token of the same session', async () => {
    const pair = await signIn(s, ADMIN.name, ADMIN.password);
    expect((await s.request('POST', '/api/v1/logout', { token: pair.refresh_token })).status).toBe(204);
    expect((await s.request('GET', `/api/v1/account/${ADMIN.name}`, { token: pair.access_token })).status).toBe(401);
  });
});

describe('access tokens', () => {
  const read = (token: string) => s.request('GET', `/api/v1/account/${ADMIN.name}`, { token });

  it('are accepted only in their canonical encoding', async () => {
    const { access_token } = await signIn(s, ADMIN.name, ADMIN.password);
    expect((await read(access_token)).status).toBe(200);
    const [header, payload, signature] = access_token.split('.') as [string, string, string];
    // HS256 signatures are 32 bytes: 43 base64url characters whose last one carries 2 spare bits.
    const last = signature.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = alphabet[alphabet.indexOf(last) ^ 1]!;
    for (const variant of [
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${signature.slice(0, -1)}${sameBytes}`,
      `${header}=.${payload}.${signature}`,
    ]) {
      expect((await read(variant)).status, variant).toBe(401);
    }
  });

  async function forged(claims: Record<string, unknown>, iat: number) {
    return new SignJWT({ typ: 'access', ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('fleet-console')
      .setAudience('fleet-console-api')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 900)
      .sign(new TextEncoder().encode(SECRET));
  }

  it('issued in the future are refused', async () => {
    const { access_token } = await signIn(s, ADMIN.name, ADMIN.password);
    const claims = claimsOf(access_token);
    const now = Math.floor(Date.now() / 1000);
    expect((await read(await forged({ ...claims }, now))).status).toBe(200);
    expect((await read(await forged({ ...claims }, now + 600))).status).toBe(401);
  });

  it('whose subject is not the account of their session are refused', async () => {
    await s.request('POST', `/api/v1/tenant/${ENTITY}/account`, {
      token: root,
      body: { document: { name: 'other_user', email: 'o@example.com', password: 'secret-123', subtype: 'developer' } },
    });
    const { access_token } = await signIn(s, ADMIN.name, ADMIN.password);
    const claims = claimsOf(access_token);
    const now = Math.floor(Date.now() / 1000);
    const res = await s.request('GET', `/api/v1/tenant/${ENTITY}/account/other_user`, {
      token: await forged({ ...claims, sub: 'other_user' }, now),
    });
    expect(res.status).toBe(401);
  });
});

describe('authentication comes before the body', () => {
  it('answers 401 to an anonymous malformed or oversized body, without schema details', async () => {
    const malformed = await s.request('POST', `/api/v1/tenant/${ENTITY}/device`, { body: { document: { name: 7 } } });
    expect(malformed.status).toBe(401);
    expect(malformed.body.errorInfo.details).toBeUndefined();
    const garbage = await s.request('POST', '/api/v1/tenant', { body: '{not json' });
    expect(garbage.status).toBe(401);
    const huge = await s.request('POST', `/api/v1/tenant/${ENTITY}/device`, {
      body: JSON.stringify({ document: { description: 'x'.repeat(2_000_000) } }),
    });
    expect(huge.status).toBe(401);
  });
});

/** Opens a raw connection, sends the headers of a POST and `first` body bytes; resolves when the server closes it. */
function slowPost(bytesEveryMs?: number) {
  return new Promise<{ closedAfterMs: number; answer: string }>((resolve, reject) => {
    const { port } = new URL(s.url);
    const started = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(
        `POST /api/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      if (bytesEveryMs) timer = setInterval(() => socket.write(' '), bytesEveryMs);
    });
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
    setTimeout(() => reject(new Error('the server kept a slow body open for 10 s')), 10_000).unref();
  });
}

describe('slow request bodies', () => {
  it('are cut when the client goes quiet mid-body', async () => {
    const { closedAfterMs, answer } = await slowPost();
    expect(closedAfterMs).toBeLessThan(3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('are cut at the body deadline even when a byte keeps trickling in', async () => {
    const { closedAfterMs, answer } = await slowPost(100);
    expect(closedAfterMs).toBeGreaterThanOrEqual(1400);
    expect(closedAfterMs).toBeLessThan(4000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('leave ordinary requests alone', async () => {
    const res = await s.request('POST', '/api/v1/login', { body: { name: ADMIN.name, password: ADMIN.password } });
    expect(res.status).toBe(200);
  });
});

describe('found by the fuzz test', () => {
  it('answers 404 when the landlord creates a device in an entity that does not exist', async () => {
    const res = await s.request('POST', '/api/v1/tenant/valueOf/device', {
      token: root,
      body: { document: { name: 'a0b1c2d3e4f6', description: '', manufacturing_type: 'CC1' } },
    });
    expect(res.status).toBe(404);
    expect(res.body.errorInfo.userMessage).toBe('Entity not found');
  });
});
