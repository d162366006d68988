import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE, assertNotThrottled, recordFailure, throttleLimits } from '../../src/domain/session/throttle.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

/**
 * Sign-in lock-out seen from several client addresses: every 127.x.y.z address is this machine,
 * so a client socket bound to 127.0.0.2 reaches the server as a caller from another address would
 * (no proxy header, no TRUST_PROXY).
 */
let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

/** POST /login from the client address `from`. */
function loginFrom(from: string, name: string, password: string) {
  const body = JSON.stringify({ name, password });
  const { hostname, port } = new URL(s.url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        path: '/api/v1/login',
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('sign-in lock-out per account and address', () => {
  it('a stranger failing from one address does not lock the owner out at another', async () => {
    for (let i = 0; i < THROTTLE.maxPerAccount; i++) {
      expect((await loginFrom('127.0.0.2', ADMIN.name, 'wrong-pass')).status).toBe(401);
    }
    // The stranger's address is blocked for this name...
    const stranger = await loginFrom('127.0.0.2', ADMIN.name, ADMIN.password);
    expect(stranger.status).toBe(429);
    expect(stranger.body.errorInfo).toMatchObject({ code: 429 });
    // ...the owner, elsewhere, signs in.
    const owner = await loginFrom('127.0.0.3', ADMIN.name, ADMIN.password);
    expect(owner.status).toBe(200);
    expect(owner.body.logged_in_as).toBe(ADMIN.name);
  });

  it('a sustained attack from many addresses blocks the name everywhere, for longer', async () => {
    // What is left of the per-account limit after the first test, spent from fresh addresses.
    let spent = THROTTLE.maxPerAccount;
    for (let host = 1; spent < THROTTLE.sustained.maxPerAccount; host++) {
      for (let i = 0; i < THROTTLE.maxPerAccount && spent < THROTTLE.sustained.maxPerAccount; i++, spent++) {
        expect((await loginFrom(`127.0.1.${host}`, ADMIN.name, 'wrong-pass')).status).toBe(401);
      }
    }
    const owner = await loginFrom('127.0.2.1', ADMIN.name, ADMIN.password);
    expect(owner.status).toBe(429);
    expect(owner.body.errorInfo).toMatchObject({ code: 429 });
    expect(Number(owner.headers['retry-after'])).toBeGreaterThan(THROTTLE.blockSeconds);
    // Another name is not affected.
    expect((await loginFrom('127.0.2.1', 'someone_else', 'wrong-pass')).status).toBe(401);
  });

  it('the sustained count outlives the short window, and its block ends after its own', async () => {
    const [, , account] = throttleLimits('slow_target', '127.0.3.1');
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const at = (seconds: number) => new Date(t0 + seconds * 1000);
    // Spread over 50 minutes: waiting out the 15-minute window does not reset the count.
    const step = (50 * 60) / THROTTLE.sustained.maxPerAccount;
    for (let i = 0; i < THROTTLE.sustained.maxPerAccount; i++) await recordFailure(s.app.db, account, at(i * step));
    const last = (THROTTLE.sustained.maxPerAccount - 1) * step;
    await expect(assertNotThrottled(s.app.db, [account], at(last + 1))).rejects.toMatchObject({ statusCode: 429 });
    await expect(
      assertNotThrottled(s.app.db, [account], at(last + THROTTLE.sustained.blockSeconds - 1)),
    ).rejects.toMatchObject({ statusCode: 429 });
    await expect(
      assertNotThrottled(s.app.db, [account], at(last + THROTTLE.sustained.blockSeconds + 1)),
    ).resolves.toBeUndefined();
  });
});
