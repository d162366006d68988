import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hostile, mutated, valid, type JsonSchema } from './fuzz.ts';
import { ADMIN, startServer, type TestServer } from './server.ts';

/**
 * Property-based fuzzing of every operation the OpenAPI document lists, through the real app:
 * valid inputs, inputs with one hostile value (U+0000, huge, deeply nested, wrong type) and
 * hostile inputs outright, as each kind of caller. No answer may be a 5xx, every status must be
 * documented for its operation, and every JSON answer must match its documented schema.
 * FUZZ_RUNS (cases per operation) and FUZZ_SEED change the search; a fixed seed keeps CI repeatable.
 * Each operation is its own test (a failure names it); the operations are dealt to test files
 * (`fuzz-*.test.ts`), each with its own server, so the runner spreads them over its workers.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  body?: JsonSchema;
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

const tag = Date.now().toString(36);
const ENTITY = `fuzz_${tag}`;
const OTHER = `fuzz_other_${tag}`;
const DEVICE = 'f0e1d2c3b4a5';
let s: TestServer;
const tokens: Record<'root' | 'admin' | 'operator', string> = { root: '', admin: '', operator: '' };
const PASSWORDS = { admin: 'fuzz-admin-1', operator: 'fuzz-operator-1' };

/** A case's headers: its token, and JSON's content type when it has a body. */
const headersOf = (token?: string, body?: unknown) => ({
  ...(token ? { authorization: `Bearer ${token}` } : {}),
  ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
});

const call = (method: string, url: string, token?: string, body?: unknown) =>
  s.app.inject({
    method: method as 'GET',
    url,
    headers: headersOf(token, body),
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });

/**
 * An event stream's case, over the server's socket: `fetch` resolves with the answer's head, so a
 * stream that opened is seen opened at once (a 200 of `text/event-stream`) and closed, where
 * `inject` would wait for an end that never comes. Any other answer is read whole, as `call` does.
 */
async function callStream(method: string, url: string, token?: string, body?: unknown) {
  const stop = new AbortController();
  const res = await fetch(s.url + url, {
    method,
    signal: stop.signal,
    headers: headersOf(token, body),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const opened = res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (opened) {
    stop.abort();
    return null;
  }
  const text = await res.text();
  return { statusCode: res.status, body: text, json: (): unknown => JSON.parse(text) };
}

async function signIn(name: string, password: string) {
  const res = await call('POST', '/api/v1/login', undefined, { name, password });
  return res.json().access_token as string;
}

/**
 * Puts back what a destructive case may have removed: the entities, the accounts, the device, the
 * sessions. After a session call (logout, refresh) only sessions can be gone: `sessionsOnly` signs
 * in again without checking the rest or setting the passwords (an argon2 hash each).
 */
async function restoreWorld(sessionsOnly = false) {
  if ((await call('GET', `/api/v1/account/${ADMIN.name}`, tokens.root)).statusCode === 401) {
    tokens.root = await signIn(ADMIN.name, ADMIN.password);
  }
  for (const name of sessionsOnly ? [] : [ENTITY, OTHER]) {
    await call('POST', '/api/v1/tenant', tokens.root, { document: { name: { name, description: '' } } });
  }
  for (const [who, subtype, access] of [
    ['admin', 'admin', ['all']],
    ['operator', 'operator', []],
  ] as const) {
    const name = `fuzz_${who}_${tag}`;
    const password = PASSWORDS[who];
    // Created only when gone: creating hashes the password (argon2id), the most a restore costs.
    const gone = !sessionsOnly && (await call('GET', `/api/v1/tenant/${ENTITY}/account/${name}`, tokens.root));
    if (gone && gone.statusCode === 404) {
      await call('POST', `/api/v1/tenant/${ENTITY}/account`, tokens.root, {
        document: { name, email: `${who}@example.com`, password, subtype, access },
      });
    }
    if ((await call('GET', `/api/v1/tenant/${ENTITY}/account/${name}`, tokens[who])).statusCode !== 200) {
      if (!sessionsOnly) {
        const $set = { password };
        await call('PUT', `/api/v1/tenant/${ENTITY}/account/${name}`, tokens.root, { operator: { $set } });
      }
      tokens[who] = await signIn(name, password);
    }
  }
  if (sessionsOnly) return;
  await call('POST', `/api/v1/tenant/${ENTITY}/device`, tokens.root, {
    document: { name: DEVICE, description: 'fuzz', manufacturing_type: 'CC1' },
  });
}

/** Values a path parameter of this name is worth trying beyond generated ones: things that exist. */
const KNOWN: Record<string, string[]> = {
  entity: [ENTITY, OTHER, 'landlord'],
  name: [DEVICE, ENTITY, 'fuzz_victim'],
  device: [DEVICE],
  deviceName: [DEVICE],
  account: [`fuzz_operator_${tag}`],
  tokenHash: ['0'.repeat(64)],
};

const segment = fc.oneof(
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: hostile.map((v) => (typeof v === 'string' && v.length > 0 ? v : 'x')) },
);

function caseOf(op: Operation) {
  const params = Object.fromEntries(
    [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
      const known = KNOWN[name!] ?? [];
      return [name!, known.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, segment) : segment];
    }),
  );
  const query = Object.fromEntries(
    op.parameters
      .filter((p) => p.in === 'query')
      .map((p) => [p.name, fc.oneof(valid(p.schema).map(String), segment)] as const),
  );
  return fc.record({
    auth: fc.constantFrom('root', 'root', 'admin', 'operator', 'none', 'garbage'),
    params: fc.record(params),
    query: fc.record(query, { requiredKeys: [] }),
    body: op.body
      ? fc.oneof(
          { weight: 3, arbitrary: valid(op.body) },
          { weight: 3, arbitrary: mutated(op.body) },
          { weight: 1, arbitrary: hostile },
        )
      : fc.constant(undefined),
  });
}

function urlOf(op: Operation, params: Record<string, string>, query: Record<string, string>) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
(addFormatsModule as unknown as (a: Ajv2020) => void)(ajv);

/** The operations the OpenAPI document lists, in its order. */
function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        responses: op.responses ?? {},
      });
    }
  }
  return operations;
}

/**
 * Starts a server and registers one test an operation for every `of`-th operation of the
 * document, from the `shard`-th (1-based): FUZZ_RUNS cases each, with the same seed as before the
 * split. Call it with top-level await from a test file.
 */
export async function describeFuzz(shard: number, of: number): Promise<void> {
  s = await startServer({ COMMAND_REPLY_TIMEOUT_MS: '200', LOG_LEVEL: 'silent' });
  afterAll(async () => s?.close());
  tokens.root = await signIn(ADMIN.name, ADMIN.password);
  await restoreWorld();
  const operations = operationsOf((await call('GET', '/api/docs')).json());
  const mine = operations.filter((_, i) => i % of === shard - 1);
  let cases = 0;

  describe(`the API under fuzzed input (operations ${shard} of every ${of})`, () => {
    it('finds the operations in the OpenAPI document', () => {
      expect(operations.length).toBeGreaterThan(30);
      expect(mine.length).toBeGreaterThan(0);
    });

    it.each(mine.map((op) => [`${op.method} ${op.path}`, op] as const))(
      '%s: no 5xx, a documented status and schema',
      { timeout: 120_000 },
      async (_, op) => {
        let failure = '';
        const check = fc.asyncProperty(caseOf(op), async (c) => {
          try {
            await runCase(op, c);
          } catch (err) {
            failure = (err as Error).message;
            throw err;
          }
        });
        await fc.assert(check, { numRuns: RUNS, seed: SEED, endOnFailure: true }).catch((err: Error) => {
          throw new Error((failure || err.message).slice(0, 400));
        });
      },
    );
  });
  afterAll(() => console.log(`fuzz: ${cases} cases over ${mine.length} operations (seed ${SEED})`));

  async function runCase(op: Operation, c: { auth: string; params: object; query: object; body: unknown }) {
    cases++;
    const token = c.auth === 'none' ? undefined : c.auth === 'garbage' ? 'not.a.token' : tokens[c.auth as 'root'];
    const url = urlOf(op, c.params as Record<string, string>, c.query as Record<string, string>);
    const where = `${op.method} ${op.path} (${url.slice(0, 100)}) as ${c.auth}`;
    // An event stream that opened (its 200 head) is one only a signed-in caller of that entity may open.
    const stream = op.responses['200']?.content?.['text/event-stream'] !== undefined;
    const res = stream ? await callStream(op.method, url, token, c.body) : await call(op.method, url, token, c.body);
    if (res === null) {
      const entity = (c.params as { entity?: string }).entity;
      const allowed =
        c.auth === 'root'
          ? entity === ENTITY || entity === OTHER
          : c.auth !== 'none' && c.auth !== 'garbage' && entity === ENTITY;
      if (!allowed) throw new Error(`${where}: the stream opened for a caller it is not for`);
      return;
    }
    // Deletes, updates (a password, a name) and the session calls can take away what later cases use;
    // a refused delete or update (4xx) took nothing away, and most of their cases are refused.
    const refused = res.statusCode >= 400 && res.statusCode < 500;
    const changing = op.method === 'DELETE' || op.method === 'PUT';
    const session = /\/(logout|refresh)$/.test(op.path);
    if (session || (changing && !refused)) await restoreWorld(session);
    if (res.statusCode >= 500) throw new Error(`${where}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const documented = op.responses[String(res.statusCode)];
    if (!documented) throw new Error(`${where}: undocumented status ${res.statusCode} ${res.body.slice(0, 200)}`);
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return;
    const body = res.json();
    if (!ajv.validate(schema, body)) {
      throw new Error(`${where}: ${res.statusCode} does not match its schema: ${ajv.errorsText()}`);
    }
  }
}
