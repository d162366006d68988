import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE } from '../../src/domain/session/throttle.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

const login = (name: string, password: string) => s.request('POST', '/api/v1/login', { body: { name, password } });

describe('sign-in throttling', () => {
  it('blocks an account after repeated failures, even with the right password, with a 429 errorInfo', async () => {
    for (let i = 0; i < THROTTLE.maxPerAccount; i++) expect((await login(ADMIN.name, 'wrong-pass')).status).toBe(401);
    const blocked = await login(ADMIN.name, ADMIN.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.errorInfo).toMatchObject({ code: 429 });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('blocks names that do not exist the same way, so blocking reveals nothing', async () => {
    for (let i = 0; i < THROTTLE.maxPerAccount; i++) await login('ghost_user', 'wrong-pass');
    expect((await login('ghost_user', 'wrong-pass')).status).toBe(429);
  });

  it('blocks an address that fails across many names', async () => {
    // Two accounts' worth of failures were spent above; spread the rest over fresh names.
    let status = 0;
    for (let i = 0; i < THROTTLE.maxPerAddress && status !== 429; i++) {
      status = (await login(`spray_${i}`, 'wrong-pass')).status;
    }
    expect(status).toBe(429);
    expect((await login('fresh_name', 'wrong-pass')).status).toBe(429);
  });
});
