import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

describe('health', () => {
  it('answers liveness and readiness', async () => {
    expect((await s.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await s.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', database: process.env.DATABASE_URL ? 'postgres' : 'pglite' });
    expect(ready.body.mqtt).toMatchObject({ url: s.mqttUrl, received: expect.any(Number) });
    expect(ready.body.mqtt.dropped).toMatchObject({ bad_json: 0, refused_connection: 0 });
  });
});

describe('security headers', () => {
  it('sends a CSP without inline script, nosniff, no framing and a referrer policy', async () => {
    const res = await s.request('GET', '/healthz');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });
});

describe('errors', () => {
  it('answers unknown API routes with the errorInfo 404', async () => {
    const res = await s.request('GET', '/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.errorInfo).toMatchObject({ code: 404, userMessage: 'Not found' });
  });

  it('answers 400 with per-field details for an invalid login body', async () => {
    const res = await s.request('POST', '/api/v1/login', { body: { name: '', password: '123' } });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.details).toEqual({
      name: ['This field is required'],
      password: ['The password must be at least 6 characters'],
    });
  });

  const malformed: [string, RequestInit & { headers?: Record<string, string> }, number][] = [
    ['broken JSON', { body: '{"name":', headers: { 'content-type': 'application/json' } }, 400],
    ['empty JSON body', { body: '', headers: { 'content-type': 'application/json' } }, 400],
    ['whitespace only', { body: '  ', headers: { 'content-type': 'application/json' } }, 400],
    ['a JSON array', { body: '[1,2]', headers: { 'content-type': 'application/json' } }, 400],
    ['JSON null', { body: 'null', headers: { 'content-type': 'application/json' } }, 400],
    ['wrong types', { body: '{"name":5,"password":{"$gt":""}}', headers: { 'content-type': 'application/json' } }, 400],
    ['text/plain', { body: 'name=admin', headers: { 'content-type': 'text/plain' } }, 400],
    [
      'form encoding',
      { body: 'name=admin&password=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      400,
    ],
    [
      'deep nesting',
      { body: '{"name":' + '['.repeat(5000) + ']'.repeat(5000) + '}', headers: { 'content-type': 'application/json' } },
      400,
    ],
    [
      'a body over 1 MiB',
      {
        body: JSON.stringify({ name: 'a', password: 'x'.repeat(1_100_000) }),
        headers: { 'content-type': 'application/json' },
      },
      413,
    ],
    [
      'a prototype-pollution key',
      {
        body: '{"__proto__":{"admin":true},"name":"admin","password":"short"}',
        headers: { 'content-type': 'application/json' },
      },
      400,
    ],
    [
      'an over-long name',
      {
        body: JSON.stringify({ name: 'n'.repeat(10_000), password: 'secret1' }),
        headers: { 'content-type': 'application/json' },
      },
      400,
    ],
  ];
  it.each(malformed)('answers %s with the envelope and never a 500', async (_label, init, expected) => {
    const res = await fetch(`${s.url}/api/v1/login`, { method: 'POST', ...init });
    const body = (await res.json()) as { errorInfo: { code: number; userMessage: string } };
    expect(res.status).toBe(expected);
    expect(body.errorInfo.code).toBe(expected);
    expect(body.errorInfo.userMessage.length).toBeGreaterThan(0);
  });

  it('answers odd paths and parameters without a 500', async () => {
    const { access_token } = (await s.request('POST', '/api/v1/login', { body: ADMIN })).body;
    for (const p of [
      '/api/v1/account/%E0%A4%A',
      '/api/v1/account/' + 'x'.repeat(300),
      '/api/v1/tenant/%00/account/a',
      '/api/v1/account/..%2f..%2fetc',
    ]) {
      const res = await s.request('GET', p, { token: access_token });
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(res.body?.errorInfo, p).toBeDefined();
    }
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document describing the session routes', async () => {
    const res = await s.request('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/login', '/api/v1/refresh', '/api/v1/logout']),
    );
    expect(
      res.body.paths['/api/v1/login'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('password');
  });
});

describe('closing', () => {
  it('is not held open by a connection that never sent a byte, nor by an idle keep-alive one', async () => {
    const own = await startServer();
    const port = Number(new URL(own.url).port);
    // A fetch pool's socket whose request was aborted before it was written looks like this.
    const mute = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => mute.once('connect', resolve));
    const idle = await fetch(`${own.url}/healthz`, { keepalive: true });
    await idle.text();
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await new Promise((resolve) => (mute.destroyed ? resolve(null) : mute.once('close', resolve)));
  });
});
