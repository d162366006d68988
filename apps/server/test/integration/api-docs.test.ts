import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefersHtml } from '../../src/plugins/openapi.ts';
import type { TestServer } from '../helpers/server.ts';
import { sharedServer } from '../helpers/shared-server.ts';

type Operation = { summary?: string; security?: unknown[]; parameters?: unknown[]; responses: Record<string, unknown> };

let s: TestServer;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  s = await sharedServer();
  doc = (await s.request('GET', '/api/docs')).body;
});
afterAll(async () => s?.close());

const get = (path: string, accept?: string) => fetch(s.url + path, { headers: accept ? { accept } : {} });
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

describe('/api/docs', () => {
  it.each([undefined, '*/*', 'application/json', 'application/json, text/plain, */*'])(
    'answers the OpenAPI JSON to a client sending Accept: %s',
    async (accept) => {
      const res = await get('/api/docs', accept);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
    },
  );

  it("answers a browser the reference page, whose scripts and styles are the server's own, within the CSP", async () => {
    const res = await get('/api/docs', BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('vary')).toMatch(/accept/i);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    const html = await res.text();
    expect(html).toContain('<title>Fleet Console API</title>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(5);
    for (const asset of assets) {
      expect(asset, 'served from this server').toMatch(/^\/api\/docs\/static\//);
      const file = await get(asset, '*/*');
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('content-security-policy'), asset).toBe(csp);
      await file.arrayBuffer(); // read to the end: an unread body keeps the connection, and close() waits
    }
    // The page's initializer loads the document from the server itself.
    const init = await (await get('/api/docs/static/swagger-initializer.js')).text();
    expect(init).toContain("resolveUrl('./json')");
    expect(((await (await get('/api/docs/json')).json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('ranks the Accept header: HTML only when preferred to JSON', () => {
    expect(prefersHtml(BROWSER)).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml(undefined)).toBe(false);
    expect(prefersHtml('*/*')).toBe(false);
    expect(prefersHtml('application/json;q=0.9, text/html;q=0.5')).toBe(false);
    expect(prefersHtml('text/html;q=0')).toBe(false);
  });
});

describe('the OpenAPI document', () => {
  it('lists each operation’s error answers with their meaning', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    for (const { name, op } of ops) {
      const secured = (op.security ?? []).length > 0;
      for (const code of secured ? ['401', '403'] : []) {
        expect(op.responses[code], `${name} ${code}`).toMatchObject({
          description: expect.not.stringMatching(/^Default Response$/),
          content: { 'application/json': { schema: { properties: { errorInfo: expect.anything() } } } },
        });
      }
      if ((op.parameters ?? []).some((p) => (p as { in: string }).in === 'path'))
        expect(op.responses['404'], `${name} 404`).toBeDefined();
    }
  });

  it('gives every operation a summary', () => {
    const missing = operations()
      .filter(({ op }) => !op.summary?.trim())
      .map(({ name }) => name);
    expect(missing).toEqual([]);
  });
});

describe('examples in the OpenAPI document', () => {
  it('shows examples of devices, accounts and commands in answers, each valid against its own schema', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const found: string[] = [];
    const visit = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as { examples?: unknown[] };
      if (Array.isArray(schema.examples) && 'type' in schema) {
        const { examples, ...rest } = schema;
        for (const example of examples) expect(ajv.validate(rest, example), `${where}: ${ajv.errorsText()}`).toBe(true);
        found.push(where);
      }
      for (const [key, child] of Object.entries(node)) visit(child, `${where}/${key}`);
    };
    for (const { name, op } of operations()) visit(op, name);
    for (const path of ['/api/v1/tenant/{entity}/device/{name}', '/api/v1/account', '/api/v1/device/{name}/commands'])
      expect(found.some((w) => w.startsWith(`GET ${path}/`))).toBe(true);
  });
});
