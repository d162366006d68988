import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_VALUES, type Subtype } from '@fleet/shared/constants';
import { accounts, entities } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * The dataview permission matrix (fleet §6): every entity subtype with no access and with each
 * access value, plus the superadmin, × every dataview operation × the caller's own entity and
 * another. Each cell asserts the exact status; another entity's dataviews answer 404.
 */

let s: TestServer;
let seq = 0;
const OWN = 'acme';
const OTHER = 'globex';
const ENTITY_SUBTYPES: Subtype[] = ['admin', 'developer', 'operator', 'infra'];
const ACCESS_CHOICES: string[][] = [[], ...ACCESS_VALUES.map((v) => [v])];

interface Actor {
  label: string;
  subtype: Subtype;
  access: string[];
  token: string;
}
const actors: Actor[] = [];

const writes = (a: Actor) =>
  a.subtype === 'sadmin' || (a.subtype === 'admin' && a.access.some((v) => v === 'all' || v === 'Dataview_all'));
const reads = (a: Actor) =>
  a.subtype === 'sadmin' || a.access.some((v) => ['all', 'Dataview_all', 'Dataview_read'].includes(v));

const req = (method: string, path: string, token: string, body?: unknown) => s.request(method, path, { token, body });

/** A dataview in `entity` owned by that entity's seeded admin, added by the superadmin. */
async function seedDataview(entity: string) {
  const name = `dv_${++seq}`;
  const res = await req('POST', `/api/v1/tenant/${entity}/dataview`, rootToken, {
    document: { name, version: '1', owner: `${entity}_owner`, authorized_accounts: [] },
  });
  if (res.status !== 201) throw new Error(`seed failed: ${res.text}`);
  return name;
}
let rootToken = '';

interface Op {
  name: string;
  ok: number;
  landlordOnly?: boolean;
  allowed: (a: Actor) => boolean;
  /** Status for an entity user in its own entity who is not allowed (403, or 404 where it may not even see). */
  denied?: (a: Actor) => number;
  run: (token: string, entity: string) => Promise<{ status: number; body: any }>;
}

const OPS: Op[] = [
  { name: 'list', ok: 200, allowed: () => true, run: (t, e) => req('GET', `/api/v1/tenant/${e}/dataview`, t) },
  {
    name: 'read one',
    ok: 200,
    allowed: reads,
    denied: () => 404,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/dataview/${await seedDataview(e)}`, t),
  },
  {
    name: 'add',
    ok: 201,
    allowed: writes,
    run: (t, e) =>
      req('POST', `/api/v1/tenant/${e}/dataview`, t, {
        document: { name: `new_${++seq}`, version: '1', owner: `${e}_owner` },
      }),
  },
  {
    name: 'edit',
    ok: 200,
    allowed: writes,
    run: async (t, e) =>
      req('PUT', `/api/v1/tenant/${e}/dataview/${await seedDataview(e)}`, t, {
        operator: { $set: { description: 'changed' } },
      }),
  },
  {
    name: 'design (save content)',
    ok: 200,
    allowed: writes,
    run: async (t, e) =>
      req('PUT', `/api/v1/tenant/${e}/dataview/${await seedDataview(e)}`, t, {
        operator: {
          $set: {
            content: {
              format: 1,
              name: 'x',
              displayName: 'X',
              layout: { items: [{ i: 'a', type: 'text', x: 0, y: 0, w: 1, h: 1 }] },
            },
          },
        },
      }),
  },
  {
    name: 'delete',
    ok: 200,
    allowed: writes,
    run: async (t, e) => req('DELETE', `/api/v1/tenant/${e}/dataview/${await seedDataview(e)}`, t),
  },
  {
    name: 'landlord list (plain path)',
    ok: 200,
    landlordOnly: true,
    allowed: () => false,
    run: (t) => req('GET', '/api/v1/dataview?limit=0&offset=0', t),
  },
  {
    name: 'landlord facets',
    ok: 200,
    landlordOnly: true,
    allowed: () => false,
    run: (t) => req('GET', '/api/v1/dataview/facets', t),
  },
];

function expected(op: Op, a: Actor, where: 'own' | 'other'): number {
  if (a.subtype === 'sadmin') return op.ok;
  if (op.landlordOnly) return 403;
  if (where === 'other') return 404;
  if (op.allowed(a)) return op.ok;
  return op.denied ? op.denied(a) : 403;
}

beforeAll(async () => {
  s = await startServer();
  rootToken = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  const hash = await hashPassword('password-1');
  await s.app.db.insert(entities).values([{ name: OWN }, { name: OTHER }]);
  const rows = [OWN, OTHER].map((entity) => ({
    name: `${entity}_owner`,
    email: 'o@x.test',
    password_hash: hash,
    subtype: 'admin' as Subtype,
    entity,
    access: ['all'],
  }));
  const wanted = ENTITY_SUBTYPES.flatMap((subtype) => ACCESS_CHOICES.map((access) => ({ subtype, access })));
  wanted.forEach((w, n) =>
    rows.push({ name: `u${n}_${w.subtype}`, email: 'u@x.test', password_hash: hash, entity: OWN, ...w }),
  );
  await s.app.db.insert(accounts).values(rows);
  actors.push({ label: 'superadmin', subtype: 'sadmin', access: ['all'], token: rootToken });
  for (const [n, w] of wanted.entries()) {
    const { access_token } = await signIn(s, `u${n}_${w.subtype}`, 'password-1');
    actors.push({ label: `${w.subtype} [${w.access.join(',') || 'none'}]`, ...w, token: access_token });
  }
});
afterAll(async () => s?.close());

describe('dataview permission matrix: 33 callers (superadmin; 4 subtypes × no access and each access value)', () => {
  it.each(OPS.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const wrong: string[] = [];
    let cells = 0;
    for (const a of actors) {
      for (const where of op.landlordOnly ? (['own'] as const) : (['own', 'other'] as const)) {
        cells++;
        const res = await op.run(a.token, where === 'own' ? OWN : OTHER);
        const want = expected(op, a, where);
        if (res.status !== want) wrong.push(`${a.label} · ${where}: ${res.status}, want ${want}`);
        else if (want >= 400 && (res.body?.errorInfo?.code !== want || 'data' in (res.body ?? {})))
          wrong.push(`${a.label} · ${where}: not an errorInfo envelope`);
      }
    }
    expect(wrong).toEqual([]);
    expect(cells).toBe(op.landlordOnly ? 33 : 66);
  });

  it('lists for an account without read access only what it owns or is authorised for', async () => {
    const plain = actors.find((a) => a.subtype === 'developer' && a.access.length === 0)!;
    const plainName = `u${ENTITY_SUBTYPES.indexOf('developer') * ACCESS_CHOICES.length}_developer`;
    const mine = `mine_${++seq}`;
    const res = await req('POST', `/api/v1/tenant/${OWN}/dataview`, rootToken, {
      document: { name: mine, version: '2', owner: `${OWN}_owner`, authorized_accounts: [plainName] },
    });
    expect(res.status).toBe(201);
    const list = await req('GET', `/api/v1/tenant/${OWN}/dataview`, plain.token);
    expect(list.body.data.map((d: { name: string }) => d.name)).toEqual([mine]);
    expect(list.body.total).toBe(1);
    expect((await req('GET', `/api/v1/tenant/${OWN}/dataview/${mine}`, plain.token)).status).toBe(200);
    const reader = actors.find((a) => a.subtype === 'operator' && a.access[0] === 'Dataview_read')!;
    const all = await req('GET', `/api/v1/tenant/${OWN}/dataview`, reader.token);
    expect(all.body.total).toBeGreaterThan(1);
  });
});
