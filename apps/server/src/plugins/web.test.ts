import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webPlugin } from './web.ts';

// A console build in miniature: the top-level pages, and hashed assets with their .br, .gz and map.
let root: string;
let app: FastifyInstance;
const routes: string[] = [];

function write(file: string, text: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-web-'));
  write('index.html', '<html>index</html>');
  write('favicon.svg', '<svg/>');
  for (let i = 0; i < 40; i++) {
    for (const ext of ['', '.br', '.gz', '.map']) write(`assets/chunk-${i}.js${ext}`, `chunk ${i}${ext}`);
  }
  write('assets/fonts/a.woff2', 'font');
  write('assets/.secret', 'hidden');
  app = Fastify({ logger: false });
  app.addHook('onRoute', (route) => void routes.push(`${String(route.method)} ${route.url}`));
  await app.register(webPlugin, { root });
});

afterAll(async () => {
  await app.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the console files', () => {
  it('serves every asset behind one route, however many the build wrote', () => {
    // Each route costs the server's start; one a file was 940 of the app's 1,300.
    expect(routes.filter((r) => r.includes('/assets/'))).toEqual(['GET,HEAD /assets/*']);
  });

  it('serves an asset, its compressed form and its map, cached for a year', async () => {
    const plain = await app.inject({ url: '/assets/chunk-7.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe('chunk 7');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await app.inject({ url: '/assets/chunk-7.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect([br.headers['content-encoding'], br.body]).toEqual(['br', 'chunk 7.br']);
    expect((await app.inject({ url: '/assets/chunk-7.js.map' })).body).toBe('chunk 7.map');
    expect((await app.inject({ url: '/assets/fonts/a.woff2' })).body).toBe('font');
    const head = await app.inject({ method: 'HEAD', url: '/assets/chunk-7.js' });
    expect([head.statusCode, head.body]).toEqual([200, '']);
  });

  it('answers a path that is no asset file as an unrouted path: the console page, or 404 for JSON', async () => {
    for (const url of ['/assets/missing.js', '/assets/', '/assets//chunk-1.js', '/assets/.secret']) {
      const page = await app.inject({ url });
      expect([url, page.statusCode, page.body]).toEqual([url, 200, '<html>index</html>']);
      expect(page.headers['cache-control']).toBe('no-cache');
      const json = await app.inject({ url, headers: { accept: 'application/json' } });
      expect([url, json.statusCode]).toEqual([url, 404]);
    }
  });

  it('serves the top-level files with no-cache and leaves other paths to the console', async () => {
    const icon = await app.inject({ url: '/favicon.svg' });
    expect([icon.statusCode, icon.body, icon.headers['cache-control']]).toEqual([200, '<svg/>', 'no-cache']);
    expect((await app.inject({ url: '/device/abc' })).body).toBe('<html>index</html>');
  });
});
