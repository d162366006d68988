import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataviewAccounts, dataviews, groups, kiosks } from '../../src/db/schema.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * The dataview owner/authorised rule (fleet §6) on every path that carries a dataview's content:
 * the kiosk manager's allocate and return answers, a device's allocation history and its command
 * history. An account that may not read a dataview sees its name only, and cannot allocate it.
 */

let s: TestServer;
let root = '';
let acme = '';
const KM = '/kiosk-manager/v1/kiosk';
const PASSWORD = 'Kiosk-paths-2026';
const SECRET = { name: 'secret', screens: 7, pin: 'S3CRET-PIN' };
const SHARED = { name: 'shared', screens: 1 };
const token: Record<'owner' | 'allocator' | 'stranger', string> = { owner: '', allocator: '', stranger: '' };

const post = (path: string, body: unknown, t: string) => s.request('POST', path, { token: t, body });
const get = (path: string, t: string) => s.request('GET', path, { token: t });

async function account(name: string, subtype: string, access: string[]) {
  const res = await post(
    `/api/v1/tenant/${acme}/account`,
    { document: { name, email: `${name}@example.com`, password: PASSWORD, subtype, access } },
    root,
  );
  expect(res.status, res.text).toBe(201);
  return (await signIn(s, name, PASSWORD)).access_token;
}

/** A device of acme in the lobby's dispenser, never connected: allocations are held for it (202). */
async function placed() {
  const name = randomDeviceId();
  expect((await post(`/api/v1/tenant/${acme}/device`, { document: { name, description: 'unit' } }, root)).status).toBe(
    201,
  );
  expect((await post(`/api/v1/tenant/${acme}/dispenser/lobby_a/put/${name}`, {}, root)).status).toBe(200);
  return name;
}

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities({}, { shared: true }));
  await s.app.db.insert(kiosks).values([{ entity: acme, name: 'lobby', latitude: 1, longitude: 2 }]);
  await s.app.db.insert(groups).values([{ entity: acme, name: 'lobby_a', kiosk: 'lobby', capacity: 50 }]);
  // The owner: an admin without dataview access, who reads its own dataviews only.
  token.owner = await account(`owner_${acme}`, 'admin', ['Group_all']);
  // Allocates (Group_all) but may not read the secret dataview; is authorised for the open one.
  token.allocator = await account(`alloc_${acme}`, 'developer', ['Group_all']);
  // An operator with no rights at all.
  token.stranger = await account(`none_${acme}`, 'operator', []);
  const [secret, shared] = await s.app.db
    .insert(dataviews)
    .values([
      { entity: acme, name: 'secret', version: '1', owner: `owner_${acme}`, content: SECRET },
      { entity: acme, name: 'shared', version: '1', owner: `owner_${acme}`, content: SHARED },
    ])
    .returning();
  await s.app.db.insert(dataviewAccounts).values([
    { dataview_id: secret!.id, account: `owner_${acme}` },
    { dataview_id: shared!.id, account: `owner_${acme}` },
    { dataview_id: shared!.id, account: `alloc_${acme}` },
  ]);
});
afterAll(async () => {
  await s?.close();
});

describe('allocating a dataview the caller may not read', () => {
  it('is refused as a missing dataview, whether its content is asked for or supplied', async () => {
    expect((await get(`/api/v1/tenant/${acme}/dataview/secret`, token.allocator)).status).toBe(404);
    const device = await placed();
    for (const value of [null, '{"screens": 1}']) {
      const res = await post(
        `${KM}/${acme}/lobby/allocate`,
        { visitor: 'v1', device, apps: { secret: value } },
        token.allocator,
      );
      expect(res.status, res.text).toBe(400);
      expect(res.body.errorInfo.details).toEqual({ 'apps.secret': ['No dataview named secret'] });
      expect(res.text).not.toContain('S3CRET');
    }
    // Nothing was recorded or sent.
    expect((await get(`/api/v1/tenant/${acme}/device/${device}/allocations`, root)).body.total).toBe(0);
    expect((await get(`/api/v1/tenant/${acme}/device/${device}/commands`, root)).body.total).toBe(0);
    // A dataview it is authorised for allocates, and the answer carries its content.
    const ok = await post(
      `${KM}/${acme}/lobby/allocate`,
      { visitor: 'v1', device, apps: { shared: null } },
      token.allocator,
    );
    expect(ok.status, ok.text).toBe(202);
    expect(ok.body.data.apps).toEqual({ shared: SHARED });
  });
});

describe('an allocation made by the dataview owner', () => {
  let device = '';
  beforeAll(async () => {
    device = await placed();
    const res = await post(
      `${KM}/${acme}/lobby/allocate`,
      { visitor: 'v2', device, apps: { secret: null, shared: null } },
      token.owner,
    );
    expect(res.status, res.text).toBe(202);
    // The owner reads its own dataview in the answer.
    expect(res.body.data.apps.secret).toEqual(SECRET);
  });

  const allocationApps = async (t: string) => {
    const res = await get(`/api/v1/tenant/${acme}/device/${device}/allocations`, t);
    expect(res.status, res.text).toBe(200);
    return res.body.data[0].apps;
  };
  const commandApps = async (t: string) => {
    const res = await get(`/api/v1/tenant/${acme}/device/${device}/commands`, t);
    expect(res.status, res.text).toBe(200);
    const allocate = res.body.data.find((c: { type: string }) => c.type === 'allocate');
    return allocate.payload.apps;
  };

  it('shows its content in the allocation history only to those who may read each dataview', async () => {
    expect(await allocationApps(token.owner)).toEqual({ secret: SECRET, shared: SHARED });
    expect(await allocationApps(root)).toEqual({ secret: SECRET, shared: SHARED });
    expect(await allocationApps(token.allocator)).toEqual({ secret: null, shared: SHARED });
    expect(await allocationApps(token.stranger)).toEqual({ secret: null, shared: null });
  });

  it('shows its content in the command history only to those who may read each dataview', async () => {
    expect(await commandApps(token.owner)).toEqual({ secret: SECRET, shared: SHARED });
    expect(await commandApps(token.allocator)).toEqual({ secret: null, shared: SHARED });
    expect(await commandApps(token.stranger)).toEqual({ secret: null, shared: null });
    const raw = await get(`/api/v1/tenant/${acme}/device/${device}/commands`, token.stranger);
    expect(raw.text).not.toContain('S3CRET');
  });

  it('shows its content in the return answer only to a returner who may read it', async () => {
    const res = await post(`${KM}/${acme}/lobby/return`, { device, dispenser: 'lobby_a' }, token.allocator);
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.apps).toEqual({ secret: null, shared: SHARED });
    expect(res.text).not.toContain('S3CRET');
  });
});
