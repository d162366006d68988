import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subtype } from '@fleet/shared/constants';
import { accounts, entities, permanentTokens } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import {
  ACTORS,
  anyone,
  KIOSK_OPS,
  manager,
  next,
  ORG_OPS,
  req,
  world,
  type Actor,
  type Op,
  type Where,
} from '../helpers/access-matrix.ts';
import { ADMIN, startServer } from '../helpers/server.ts';

/**
 * Every account, entity and token operation × every kind of caller × the caller's own entity
 * and another entity. Each cell asserts the exact answer; another entity's objects answer 404
 * and never data. The organisation's and kiosk manager's operations are in helpers/access-matrix.ts.
 */

let hash = '';
const tokens: Record<string, string> = {};
const OWN = 'acme';
const OTHER = 'globex';

async function addAccount(entity: string | null, subtype: Subtype, access: string[] = []) {
  const name = `${subtype}_${next()}`;
  await world.s.app.db
    .insert(accounts)
    .values({ name, email: `${name}@x.test`, password_hash: hash, subtype, entity, access });
  return name;
}

async function addToken(account: string) {
  const value = `pt_matrix_${next()}`;
  const [row] = await world.s.app.db.query.accounts.findMany({ where: (a, { eq }) => eq(a.name, account) });
  await world.s.app.db.insert(permanentTokens).values({ token_hash: hashToken(value), account_id: row!.id });
  return hashToken(value);
}
const doc = (subtype: Subtype) => ({
  document: { name: `new_${next()}`, email: 'n@x.test', password: 'password-1', subtype },
});

const OPS: Op[] = [
  ...ORG_OPS,
  ...KIOSK_OPS,
  { name: 'list accounts', ok: 200, allowed: anyone, run: (t, e) => req('GET', `/api/v1/tenant/${e}/account`, t) },
  {
    name: 'read an account',
    ok: 200,
    allowed: anyone,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/account/${await addAccount(e, 'developer')}`, t),
  },
  {
    name: 'create a developer',
    ok: 201,
    allowed: manager,
    run: (t, e) => req('POST', `/api/v1/tenant/${e}/account`, t, doc('developer')),
  },
  {
    name: 'create an admin',
    ok: 201,
    allowed: () => false,
    run: (t, e) => req('POST', `/api/v1/tenant/${e}/account`, t, doc('admin')),
  },
  {
    name: 'change a developer',
    ok: 200,
    allowed: manager,
    run: async (t, e) =>
      req('PUT', `/api/v1/tenant/${e}/account/${await addAccount(e, 'developer')}`, t, {
        operator: { $set: { email: 'c@x.test' } },
      }),
  },
  {
    name: "change an admin's password",
    ok: 200,
    allowed: () => false,
    run: async (t, e) =>
      req('PUT', `/api/v1/tenant/${e}/account/${await addAccount(e, 'admin', ['all'])}`, t, {
        operator: { $set: { password: 'newpass-1' } },
      }),
  },
  {
    name: 'delete a developer',
    ok: 200,
    allowed: manager,
    run: async (t, e) => req('DELETE', `/api/v1/tenant/${e}/account/${await addAccount(e, 'developer')}`, t),
  },
  {
    name: 'delete an admin',
    ok: 200,
    allowed: () => false,
    run: async (t, e) => req('DELETE', `/api/v1/tenant/${e}/account/${await addAccount(e, 'admin')}`, t),
  },
  {
    name: "generate a developer's token",
    ok: 200,
    allowed: manager,
    run: async (t, e) =>
      req('GET', `/api/v1/tenant/${e}/account/${await addAccount(e, 'developer')}/permanent-token`, t),
  },
  {
    name: "list a developer's tokens",
    ok: 200,
    allowed: manager,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/account/${await addAccount(e, 'developer')}/tokens`, t),
  },
  {
    name: "revoke a developer's token",
    ok: 200,
    allowed: manager,
    run: async (t, e) => {
      const name = await addAccount(e, 'developer');
      return req('DELETE', `/api/v1/tenant/${e}/account/${name}/token/${await addToken(name)}`, t);
    },
  },
  {
    name: 'list files',
    ok: 200,
    allowed: anyone,
    run: (t, e) => req('GET', `/api/v1/tenant/${e}/files?level=entity&entity_id=${e}`, t),
  },
  {
    name: 'list firmware',
    ok: 200,
    allowed: anyone,
    run: (t, e) => req('GET', `/api/v1/tenant/${e}/firmware?level=entity&entity_id=${e}`, t),
  },
  {
    name: 'delete all files',
    ok: 200,
    // By subtype: admins and developers (whatever their access), never operators or infra.
    allowed: (a) => !['operator', 'infra', 'group_writer'].includes(a),
    run: (t, e) => req('DELETE', `/api/v1/tenant/${e}/files/all?level=entity&entity_id=${e}`, t),
  },
  { name: 'list all accounts (plain path)', landlordOnly: true, ok: 200, run: (t) => req('GET', '/api/v1/account', t) },
  {
    name: 'create on the plain path',
    landlordOnly: true,
    ok: 201,
    run: (t) => req('POST', '/api/v1/account', t, { document: { ...doc('developer').document, entity: OWN } }),
  },
  { name: 'list entities', landlordOnly: true, ok: 200, run: (t) => req('GET', '/api/v1/tenant', t) },
  {
    name: 'create an entity',
    landlordOnly: true,
    ok: 201,
    run: (t) => req('POST', '/api/v1/tenant', t, { document: { name: { name: `ent_${next()}`, description: '' } } }),
  },
  {
    name: 'delete an entity',
    landlordOnly: true,
    ok: 200,
    run: async (t) => {
      const name = `ent_${next()}`;
      await world.s.app.db.insert(entities).values({ name });
      return req('DELETE', `/api/v1/tenant/${name}`, t);
    },
  },
  {
    name: 'tenant/specific',
    landlordOnly: true,
    ok: 200,
    run: (t) => req('POST', '/api/v1/tenant/specific', t, { type: 'account', endpoint: OWN }),
  },
  {
    name: "landlord token read for an entity's account",
    landlordOnly: true,
    ok: 200,
    run: async (t) => req('GET', `/api/v1/tenant/${OWN}/${await addAccount(OWN, 'developer')}/permanent-token`, t),
  },
  {
    name: 'list beacon configurations',
    ok: 200,
    allowed: anyone,
    run: (t, e) => req('GET', `/api/v1/tenant/${e}/beacon-configs`, t),
  },
  {
    name: 'list beacon events',
    ok: 200,
    allowed: anyone,
    run: (t, e) => req('GET', `/api/v1/tenant/${e}/beacon-events`, t),
  },
  {
    name: 'configure a beacon',
    ok: 201,
    // By account type: operators and infra accounts (group_writer is an operator) may not.
    allowed: (a) => !['operator', 'infra', 'group_writer'].includes(a),
    run: (t, e) =>
      req('POST', `/api/v1/tenant/${e}/beacon-configs`, t, {
        beacon_mac: next().toString(16).padStart(12, '0'),
        patient_name: 'P',
        medications: [{ name: 'A', dosage: '1 mg' }],
      }),
  },
];

function expected(op: Op, actor: Actor, where: Where): number {
  if (actor === 'sadmin') return op.ok;
  if (op.landlordOnly) return 403;
  if (where === 'other') return 404;
  return op.allowed!(actor) ? op.ok : 403;
}

const cells = OPS.flatMap((op) =>
  ACTORS.flatMap((actor) =>
    (op.landlordOnly ? (['own'] as const) : (['own', 'other'] as const)).map((where) => ({ op, actor, where })),
  ),
);

beforeAll(async () => {
  world.s = await startServer();
  hash = await hashPassword('password-1');
  await world.s.app.db.insert(entities).values([{ name: OWN }, { name: OTHER }]);
  const made: Record<Actor, [Subtype, string[]]> = {
    sadmin: ['sadmin', ['all']],
    admin_all: ['admin', ['all']],
    admin_limited: ['admin', ['Site_all']],
    developer: ['developer', []],
    operator: ['operator', []],
    infra: ['infra', []],
    site_reader: ['developer', ['Site_read']],
    group_reader: ['developer', ['Group_read']],
    group_writer: ['operator', ['Group_all']],
  };
  for (const actor of ACTORS) {
    if (actor === 'sadmin') {
      tokens[actor] = (await world.s.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
      continue;
    }
    const [subtype, access] = made[actor];
    const name = await addAccount(OWN, subtype, access);
    tokens[actor] = (
      await world.s.request('POST', '/api/v1/login', { body: { name, password: 'password-1' } })
    ).body.access_token;
  }
});
afterAll(async () => world.s?.close());

describe(`access matrix (${cells.length} cells)`, () => {
  it.each(cells.map((c) => [`${c.op.name} · ${c.actor} · ${c.where} entity`, c] as const))(
    '%s',
    async (_label, { op, actor, where }) => {
      const res = await op.run(tokens[actor]!, where === 'own' ? OWN : OTHER);
      const want = expected(op, actor, where);
      expect(res.status, JSON.stringify(res.body)).toBe(want);
      if (want >= 400) {
        expect(res.body.errorInfo.code).toBe(want);
        expect(res.body).not.toHaveProperty('data');
        expect(JSON.stringify(res.body)).not.toMatch(/@x\.test/);
      }
    },
  );
});
