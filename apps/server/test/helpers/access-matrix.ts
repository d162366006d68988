import type { TestServer } from './server.ts';
import { devices, groups, kiosks, sites } from '../../src/db/schema.ts';

/**
 * The access matrix's callers, the shape of an operation, and the organisation's and kiosk
 * manager's operations (integration/access-matrix.test.ts runs them with the account, entity and
 * token ones). `world.s` is the matrix file's server, set in its beforeAll.
 */
export const world = { s: undefined as unknown as TestServer, seq: 0 };
/** A number never used before in this file: unique names. */
export const next = () => ++world.seq;

export const ACTORS = [
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
export type Actor = (typeof ACTORS)[number];
export type Where = 'own' | 'other';

export interface Op {
  name: string;
  /** Only the landlord may; no own/other dimension (plain paths and entity management). */
  landlordOnly?: boolean;
  ok: number;
  /** For entity users acting in their own entity: may they? */
  allowed?: (actor: Actor) => boolean;
  run: (token: string, entity: string) => Promise<{ status: number; body: any }>;
}

export const manager = (a: Actor) => a === 'admin_all';
export const anyone = () => true;
export const req = (method: string, path: string, token: string, body?: unknown) =>
  world.s.request(method, path, { token, body });

// The organisation (fleet §7): Site_* decide sites and kiosks, Group_* groups; `all` both.
export const siteRead = (a: Actor) => ['admin_all', 'admin_limited', 'site_reader'].includes(a);
export const siteWrite = (a: Actor) => ['admin_all', 'admin_limited'].includes(a);
export const groupRead = (a: Actor) => ['admin_all', 'group_reader', 'group_writer'].includes(a);
export const groupWrite = (a: Actor) => ['admin_all', 'group_writer'].includes(a);
const addSite = async (entity: string) => {
  const name = `site_${next()}`;
  await world.s.app.db.insert(sites).values({ entity, name, latitude: 1, longitude: 2 });
  return name;
};
const addKiosk = async (entity: string) => {
  const name = `kiosk_${next()}`;
  await world.s.app.db.insert(kiosks).values({ entity, name, latitude: 1, longitude: 2 });
  return name;
};
const addGroup = async (entity: string) => {
  const name = `group_${next()}`;
  await world.s.app.db.insert(groups).values({ entity, name });
  return name;
};
export const addDevice = async (entity: string) => {
  const name = next().toString(16).padStart(12, '0');
  await world.s.app.db.insert(devices).values({ entity, name, mqtt_secret_hash: 'x' });
  return name;
};
export const set = (v: Record<string, unknown>) => ({ operator: { $set: v } });
/**
 * A kiosk with a dispenser, and a device whose last dispenser it is but that stands in none, as
 * once allocated (so it may be returned there), asleep: commands are held, 202.
 */
const atKiosk = async (entity: string) => {
  const kiosk = await addKiosk(entity);
  const group = `group_${next()}`;
  await world.s.app.db.insert(groups).values({ entity, name: group, kiosk });
  const name = next().toString(16).padStart(12, '0');
  await world.s.app.db.insert(devices).values({ entity, name, mqtt_secret_hash: 'x', last_dispenser: group });
  return { kiosk, group, device: name };
};

// The kiosk manager (fleet §7): allocating and returning move devices between dispensers, so
// Group_all (or all) decides, as for put-device; any account of the entity reads the history.
export const KIOSK_OPS: Op[] = [
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

export const ORG_OPS: Op[] = [
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
      req('POST', `/api/v1/tenant/${e}/site`, t, { document: { name: `s_${next()}`, gps_coordinates: [1, 2] } }),
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
        document: { name: `k_${next()}`, location: { gps_coordinates: [1, 2] } },
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
    run: (t, e) => req('POST', `/api/v1/tenant/${e}/dispenser`, t, { document: { name: `g_${next()}` } }),
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
    run: (t, e) => req('PUT', `/api/v1/tenant/${e}/config`, t, set({ description: `d${next()}` })),
  },
];
