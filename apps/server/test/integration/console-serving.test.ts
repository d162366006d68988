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
