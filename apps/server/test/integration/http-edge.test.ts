import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * The HTTP edge (issue 22, item 5): what Node's HTTP parser refuses is answered in the errorInfo
 * envelope too, an answer given before its body arrived ends the connection, and API answers are
 * never cached while the console's assets are.
 */
let s: TestServer;
let webDist: string;
beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-web-'));
  await fs.mkdir(path.join(webDist, 'assets'));
  await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Fleet Console</title>');
  await fs.writeFile(path.join(webDist, 'assets', 'app-1a2b3c.js'), 'console.log(1)');
  // The deadline is far off: whatever closes a connection in these tests within seconds, it is not that.
  s = await startServer({ WEB_DIST: webDist, BODY_IDLE_TIMEOUT_MS: '500', BODY_TIMEOUT_MS: '30000' });
});
afterAll(async () => {
  await s?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

interface RawExchange {
  status: number;
  headers: string;
  body: string;
  /** ms from the first byte sent until the server closed the connection. */
  closedAfterMs: number;
}

/**
 * Sends `head` (and `trickle` every 100 ms after it, if given) on a raw connection; resolves once
 * the server closes it. Rejects when the server keeps it open for 10 s.
 */
function raw(head: string, trickle?: string): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(s.url).port), '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for 10 s; it answered: ${answer.slice(0, 200)}`));
    }, 10_000);
    socket.on('connect', () => {
      socket.write(head);
      if (trickle) timer = setInterval(() => socket.write(trickle), 100);
    });
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(guard);
      const [headers = '', body = ''] = answer.split('\r\n\r\n', 2);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]),
        headers,
        body,
        closedAfterMs: Date.now() - started,
      });
    });
  });
}

const envelope = (x: RawExchange) => (JSON.parse(x.body) as { errorInfo: Record<string, unknown> }).errorInfo;

describe('what the HTTP parser refuses is answered in the envelope', () => {
  it('a URL too long: 431', async () => {
    const x = await raw(`GET /api/v1/account?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(x.status).toBe(431);
    expect(x.headers).toMatch(/content-type: application\/json/i);
    expect(envelope(x)).toMatchObject({ code: 431, userMessage: 'The request headers are too large' });
  });

  it('headers too long: 431', async () => {
    const x = await raw(`GET /api/v1/account HTTP/1.1\r\nHost: x\r\nX-Filler: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(x.status).toBe(431);
    expect(envelope(x).code).toBe(431);
  });

  it('a malformed chunked body: 400', async () => {
    const x = await raw(
      'POST /api/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expect(x.status).toBe(400);
    expect(envelope(x)).toMatchObject({ code: 400, userMessage: 'Invalid request' });
  });

  it('a request line that is not HTTP: 400', async () => {
    const x = await raw('HELLO\r\n\r\n');
    expect(x.status).toBe(400);
    expect(envelope(x).code).toBe(400);
  });

  it('a body that stops arriving: 408', async () => {
    const x = await raw(
      'POST /api/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    expect(x.status).toBe(408);
    expect(envelope(x)).toMatchObject({ code: 408, userMessage: 'The request took too long' });
  });
});

describe('an answer given before the body arrived', () => {
  it('ends the connection of an anonymous request whose body still trickles, and only that', async () => {
    const x = await raw(
      'POST /api/v1/tenant HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      ' ',
    );
    expect(x.status).toBe(401);
    expect(envelope(x).code).toBe(401);
    expect(x.headers).toMatch(/connection: close/i);
    expect(x.closedAfterMs).toBeLessThan(2000);
    // A request answered once its body was read keeps its connection.
    const res = await fetch(`${s.url}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": 7}',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('connection')).not.toBe('close');
  });
});

describe('caching', () => {
  it("API answers, tokens, errors and the kiosk manager say no-store; the console's files do not", async () => {
    const { access_token } = await signIn(s, ADMIN.name, ADMIN.password);
    const login = await s.request('POST', '/api/v1/login', { body: { name: ADMIN.name, password: ADMIN.password } });
    const answers = [
      login,
      await s.request('GET', '/api/v1/account', { token: access_token }),
      await s.request('GET', '/api/v1/account'),
      await s.request('GET', '/api/v1/no-such-route', { token: access_token }),
      await s.request('POST', '/kiosk-manager/v1/kiosk/nowhere/nokiosk/allocate', {
        token: access_token,
        body: { visitor: 'v1', device: 'aabbccddeeff', network: {} },
      }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 404]);
    for (const a of answers) expect(a.headers.get('cache-control')).toBe('no-store');
    // The console's files keep their own caching.
    const asset = await s.request('GET', '/assets/app-1a2b3c.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await s.request('GET', '/device');
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });
});
