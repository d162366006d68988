import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';

/** The console is served to any client that does not ask for JSON only: browsers, curl, health checks. */
let s: TestServer;
let webDist: string;
beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'fleet-web-'));
  await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Fleet Console</title>');
  // What apps/web/scripts/prerender.mjs writes beside it.
  await fs.writeFile(path.join(webDist, 'login.html'), '<!doctype html><title>Fleet Console</title><p>light sign-in');
  await fs.writeFile(
    path.join(webDist, 'login-dark.html'),
    '<!doctype html><title>Fleet Console</title><p>dark sign-in',
  );
  s = await startServer({ WEB_DIST: webDist });
});
afterAll(async () => {
  await s?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

describe('the console for any client', () => {
  it.each([
    ['*/*', '/'],
    ['*/*', '/device?page=2'],
    ['text/html,application/xhtml+xml,*/*;q=0.8', '/auth/login'],
    ['', '/settings'],
    ['application/json, text/plain, */*', '/entity'],
  ])('serves index.html for Accept %j on %s', async (accept, p) => {
    const res = await s.request('GET', p, { headers: accept ? { accept } : {} });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<title>Fleet Console</title>');
  });

  it('serves the prerendered sign-in page on /auth/login, dark when the fleet-theme cookie says so', async () => {
    const page = async (p: string, cookie?: string) =>
      (await s.request('GET', p, { headers: cookie ? { cookie } : {} })).text;
    expect(await page('/auth/login')).toContain('light sign-in');
    expect(await page('/auth/login?redirect=%2Fdevice')).toContain('light sign-in');
    expect(await page('/auth/login', 'a=1; fleet-theme=dark')).toContain('dark sign-in');
    expect(await page('/auth/login', 'fleet-theme=light')).toContain('light sign-in');
    expect(await page('/auth/login', 'not-fleet-theme=dark')).toContain('light sign-in');
    // Every other console path is drawn by the client router from index.html.
    expect(await page('/device', 'fleet-theme=dark')).not.toContain('sign-in');
  });

  it('answers the JSON 404 to a client that accepts JSON only', async () => {
    for (const accept of ['application/json', 'application/problem+json, application/json;q=0.9']) {
      const res = await s.request('GET', '/somewhere', { headers: { accept } });
      expect(res.status).toBe(404);
      expect(res.body.errorInfo).toMatchObject({ code: 404, userMessage: 'Not found' });
    }
  });

  it('keeps the JSON 404 for unknown API paths and for other methods, whatever is accepted', async () => {
    for (const [method, p] of [
      ['GET', '/api/v1/nothing-here'],
      ['GET', '/api'],
      ['POST', '/device'],
    ] as const) {
      const res = await s.request(method, p, { headers: { accept: '*/*' } });
      expect(res.status).toBe(404);
      expect(res.body.errorInfo.code).toBe(404);
    }
  });
});
