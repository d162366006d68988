import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subtype } from '@fleet/shared/constants';
import { accounts, devices, entities, groups, kiosks, permanentTokens, sites } from '../../src/db/schema.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { hashToken } from '../../src/lib/tokens.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';

/**
 * Every account, entity and token operation × every kind of caller × the caller's own entity
 * and another entity. Each cell asserts the exact answer; another entity's objects answer 404
 * and never data.
 */

let s: TestServer;
let hash = '';
let seq = 0;
const tokens: Record<string, string> = {};
const OWN = 'acme';
const OTHER = 'globex';

const ACTORS = [
  'sadmin',
  'admin_all',
  'admin_limited',
  'developer',
  'operator',
  'infra',
  'site_reader',
  'group_reader',
  'group_writer',
] as const;
type Actor = (typeof ACTORS)[number];
type Where = 'own' | 'other';

async function addAccount(entity: string | null, subtype: Subtype, access: string[] = []) {
  const name = `${subtype}_${++seq}`;
  await s.app.db
    .insert(accounts)
    .values({ name, email: `${name}@x.test`, password_hash: hash, subtype, entity, access });
  return name;
}

async function addToken(account: string) {
  const value = `pt_matrix_${++seq}`;
  const [row] = await s.app.db.query.accounts.findMany({ where: (a, { eq }) => eq(a.name, account) });
  await s.app.db.insert(permanentTokens).values({ token_hash: hashToken(value), account_id: row!.id });
  return hashToken(value);
}

interface Op {
  name: string;
  /** Only the landlord may; no own/other dimension (plain paths and entity management). */
  landlordOnly?: boolean;
  ok: number;
  /** For entity users acting in their own entity: may they? */
  allowed?: (actor: Actor) => boolean;
  run: (token: string, entity: string) => Promise<{ status: number; body: any }>;
}

const manager = (a: Actor) => a === 'admin_all';
const anyone = () => true;
const req = (method: string, path: string, token: string, body?: unknown) => s.request(method, path, { token, body });
const doc = (subtype: Subtype) => ({
  document: { name: `new_${++seq}`, email: 'n@x.test', password: 'password-1', subtype },
});

// The organisation (fleet §7): Site_* decide sites and kiosks, Group_* groups; `all` both.
const siteRead = (a: Actor) => ['admin_all', 'admin_limited', 'site_reader'].includes(a);
const siteWrite = (a: Actor) => ['admin_all', 'admin_limited'].includes(a);
const groupRead = (a: Actor) => ['admin_all', 'group_reader', 'group_writer'].includes(a);
const groupWrite = (a: Actor) => ['admin_all', 'group_writer'].includes(a);
const addSite = async (entity: string) => {
  const name = `site_${++seq}`;
  await s.app.db.insert(sites).values({ entity, name, latitude: 1, longitude: 2 });
  return name;
};
const addKiosk = async (entity: string) => {
  const name = `kiosk_${++seq}`;
  await s.app.db.insert(kiosks).values({ entity, name, latitude: 1, longitude: 2 });
  return name;
};
const addGroup = async (entity: string) => {
  const name = `group_${++seq}`;
  await s.app.db.insert(groups).values({ entity, name });
  return name;
};
const addDevice = async (entity: string) => {
  const name = (++seq).toString(16).padStart(12, '0');
  await s.app.db.insert(devices).values({ entity, name, mqtt_secret_hash: 'x' });
  return name;
};
const set = (v: Record<string, unknown>) => ({ operator: { $set: v } });
/**
 * A kiosk with a dispenser, and a device whose last dispenser it is but that stands in none, as
 * once allocated (so it may be returned there), asleep: commands are held, 202.
 */
const atKiosk = async (entity: string) => {
  const kiosk = await addKiosk(entity);
  const group = `group_${++seq}`;
  await s.app.db.insert(groups).values({ entity, name: group, kiosk });
  const name = (++seq).toString(16).padStart(12, '0');
  await s.app.db.insert(devices).values({ entity, name, mqtt_secret_hash: 'x', last_dispenser: group });
  return { kiosk, group, device: name };
};

// The kiosk manager (fleet §7): allocating and returning move devices between dispensers, so
// Group_all (or all) decides, as for put-device; any account of the entity reads the history.
const KIOSK_OPS: Op[] = [
  {
    name: 'allocate a device',
    ok: 202,
    allowed: groupWrite,
    run: async (t, e) => {
      const at = await atKiosk(e);
      return req('POST', `/kiosk-manager/v1/kiosk/${e}/${at.kiosk}/allocate`, t, { visitor: 'v', device: at.device });
    },
  },
  {
    name: 'return a device',
    ok: 202,
    allowed: groupWrite,
    run: async (t, e) => {
      const at = await atKiosk(e);
      return req('POST', `/kiosk-manager/v1/kiosk/${e}/${at.kiosk}/return`, t, {
        device: at.device,
        dispenser: at.group,
      });
    },
  },
  {
    name: "read a device's allocations",
    ok: 200,
    allowed: anyone,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/device/${await addDevice(e)}/allocations`, t),
  },
];

const ORG_OPS: Op[] = [
  { name: 'list sites', ok: 200, allowed: siteRead, run: (t, e) => req('GET', `/api/v1/tenant/${e}/site`, t) },
  {
    name: 'read a site',
    ok: 200,
    allowed: siteRead,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/site/${await addSite(e)}`, t),
  },
  {
    name: 'create a site',
    ok: 201,
    allowed: siteWrite,
    run: (t, e) =>
      req('POST', `/api/v1/tenant/${e}/site`, t, { document: { name: `s_${++seq}`, gps_coordinates: [1, 2] } }),
  },
  {
    name: 'change a site',
    ok: 200,
    allowed: siteWrite,
    run: async (t, e) => req('PUT', `/api/v1/tenant/${e}/site/${await addSite(e)}`, t, set({ description: 'x' })),
  },
  {
    name: 'delete a site',
    ok: 200,
    allowed: siteWrite,
    run: async (t, e) => req('DELETE', `/api/v1/tenant/${e}/site/${await addSite(e)}`, t),
  },
  { name: 'list kiosks', ok: 200, allowed: siteRead, run: (t, e) => req('GET', `/api/v1/tenant/${e}/kiosk`, t) },
  {
    name: 'read a kiosk',
    ok: 200,
    allowed: siteRead,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/kiosk/${await addKiosk(e)}`, t),
  },
  {
    name: 'create a kiosk',
    ok: 201,
    allowed: siteWrite,
    run: (t, e) =>
      req('POST', `/api/v1/tenant/${e}/kiosk`, t, {
        document: { name: `k_${++seq}`, location: { gps_coordinates: [1, 2] } },
      }),
  },
  {
    name: 'change a kiosk',
    ok: 200,
    allowed: siteWrite,
    run: async (t, e) => req('PUT', `/api/v1/tenant/${e}/kiosk/${await addKiosk(e)}`, t, set({ description: 'x' })),
  },
  {
    name: 'delete a kiosk',
    ok: 200,
    allowed: siteWrite,
    run: async (t, e) => req('DELETE', `/api/v1/tenant/${e}/kiosk/${await addKiosk(e)}`, t),
  },
  { name: 'list groups', ok: 200, allowed: groupRead, run: (t, e) => req('GET', `/api/v1/tenant/${e}/dispenser`, t) },
  {
    name: 'read a group',
    ok: 200,
    allowed: groupRead,
    run: async (t, e) => req('GET', `/api/v1/tenant/${e}/dispenser/${await addGroup(e)}`, t),
  },
  {
    name: 'create a group',
    ok: 201,
    allowed: groupWrite,
    run: (t, e) => req('POST', `/api/v1/tenant/${e}/dispenser`, t, { document: { name: `g_${++seq}` } }),
  },
  {
    name: 'change a group',
    ok: 200,
    allowed: groupWrite,
    run: async (t, e) => req('PUT', `/api/v1/tenant/${e}/dispenser/${await addGroup(e)}`, t, set({ capacity: 4 })),
  },
  {
    name: 'delete a group',
    ok: 200,
    allowed: groupWrite,
    run: async (t, e) => req('DELETE', `/api/v1/tenant/${e}/dispenser/${await addGroup(e)}`, t),
  },
  {
    name: 'put a device in a group',
    ok: 200,
    allowed: groupWrite,
    run: async (t, e) => req('POST', `/api/v1/tenant/${e}/dispenser/${await addGroup(e)}/put/${await addDevice(e)}`, t),
  },
  {
    name: 'read the entity config',
    ok: 200,
    allowed: anyone,
    run: (t, e) => req('GET', `/api/v1/tenant/${e}/config`, t),
  },
  {
    name: 'change the entity config',
    ok: 200,
    allowed: manager,
    run: (t, e) => req('PUT', `/api/v1/tenant/${e}/config`, t, set({ description: `d${++seq}` })),
  },
];

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
    run: (t) => req('POST', '/api/v1/tenant', t, { document: { name: { name: `ent_${++seq}`, description: '' } } }),
  },
  {
    name: 'delete an entity',
    landlordOnly: true,
    ok: 200,
    run: async (t) => {
      const name = `ent_${++seq}`;
      await s.app.db.insert(entities).values({ name });
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
        beacon_mac: (++seq).toString(16).padStart(12, '0'),
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
  s = await startServer();
  hash = await hashPassword('password-1');
  await s.app.db.insert(entities).values([{ name: OWN }, { name: OTHER }]);
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
      tokens[actor] = (await s.request('POST', '/api/v1/login', { body: ADMIN })).body.access_token;
      continue;
    }
    const [subtype, access] = made[actor];
    const name = await addAccount(OWN, subtype, access);
    tokens[actor] = (
      await s.request('POST', '/api/v1/login', { body: { name, password: 'password-1' } })
    ).body.access_token;
  }
});
afterAll(async () => s?.close());

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
