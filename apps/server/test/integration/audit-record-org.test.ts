import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesOf as entriesOfAll } from '../helpers/audit.ts';
import { beaconForm } from '../helpers/beacons.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

// Sites, kiosks, groups and a device put into a group: each change with its entry (before/after,
// target), a refusal with its reason, and none of it visible to another entity's admin. On the
// worker's shared server: the entries read (and counted by `only`) are its own entity's.
let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const token = { admin: '', globexAdmin: '' };
const device = randomDeviceId();
const req = (method: string, path: string, body?: unknown, t = token.admin) =>
  s.request(method, `/api/v1/tenant/${acme}/${path}`, { token: t, body });
const entriesOf = (srv: TestServer, action: string) => entriesOfAll(srv, action, { entities: [acme] });
const only = async (action: string) => {
  const rows = await entriesOf(s, action);
  expect(rows, action).toHaveLength(1);
  return rows[0];
};

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities({}, { shared: true }));
  token.admin = (await createAccount(s, root, { name: `adm_${acme}`, entity: acme, subtype: 'admin' })).access_token;
  token.globexAdmin = (
    await createAccount(s, root, { name: `adm_${globex}`, entity: globex, subtype: 'admin' })
  ).access_token;
  const body = { document: { name: device, description: '', manufacturing_type: 'CC1' } };
  expect((await req('POST', 'device', body)).status).toBe(201);
});
afterAll(async () => s?.close());

describe('audit entries of the organisation', () => {
  it('records a site created, changed and deleted', async () => {
    const doc = { name: 'HQ', gps_coordinates: [52.5, 13.4], address: { city: 'Berlin' } };
    expect((await req('POST', 'site', { document: doc })).status).toBe(201);
    const created = await only('site.create');
    expect(created).toMatchObject({ entity: acme, target_type: 'site', target_name: 'HQ', actor_name: `adm_${acme}` });
    expect(created.changes.after).toMatchObject({ name: 'HQ', address: { city: 'Berlin' } });

    expect((await req('PUT', 'site/HQ', { operator: { $set: { description: 'Head office' } } })).status).toBe(200);
    const updated = await only('site.update');
    expect(updated).toMatchObject({ entity: acme, target_name: 'HQ', outcome: 'success' });
    expect(updated.changes, JSON.stringify(updated.changes)).toEqual({
      before: { description: '' },
      after: { description: 'Head office' },
    });
  });

  it('records a kiosk and a group created and changed', async () => {
    const kiosk = { name: 'K1', location: { site: 'HQ' } };
    const k = await req('POST', 'kiosk', { document: kiosk });
    expect(k.status, k.text).toBe(201);
    const created = await only('kiosk.create');
    expect(created).toMatchObject({ entity: acme, target_type: 'kiosk', target_name: 'K1' });
    expect(created.changes.after).toMatchObject({ name: 'K1' });
    expect((await req('PUT', 'kiosk/K1', { operator: { $set: { description: 'hall' } } })).status).toBe(200);
    expect((await only('kiosk.update')).changes).toEqual({
      before: { description: '' },
      after: { description: 'hall' },
    });

    const group = { name: 'G1', capacity: 1, kiosk: 'K1', location: { site: 'HQ' } };
    expect((await req('POST', 'dispenser', { document: group })).status).toBe(201);
    const made = await only('group.create');
    expect(made).toMatchObject({ entity: acme, target_type: 'group', target_name: 'G1' });
    expect(made.changes.after).toMatchObject({ name: 'G1', capacity: 1 });
    expect((await req('PUT', 'dispenser/G1', { operator: { $set: { capacity: 2 } } })).status).toBe(200);
    expect((await only('group.update')).changes).toEqual({ before: { capacity: 1 }, after: { capacity: 2 } });
  });

  it('records a device put into a group as its change, and a refused put with its reason', async () => {
    expect((await req('POST', `dispenser/G1/put/${device}`)).status).toBe(200);
    const put = (await entriesOf(s, 'device.update')).find((e) => e.target_name === device);
    expect(put).toMatchObject({ entity: acme, target_type: 'device', details: { put_in_group: 'G1' } });
    expect(put.changes).toMatchObject({
      before: { group: null },
      after: { group: 'G1', last_dispenser: { dispenser: 'G1' } },
    });
    // Taken out of the group again (a device change naming no group).
    expect((await req('PUT', `device/${device}`, { operator: { $set: { group: null } } })).status).toBe(200);
    const out = (await entriesOf(s, 'device.update')).filter((e) => e.target_name === device);
    expect(out.at(-1).changes).toEqual({ before: { group: 'G1' }, after: { group: null } });

    expect((await req('PUT', 'dispenser/G1', { operator: { $set: { name: 'HQ' } } })).status).toBe(200);
    expect((await req('POST', 'dispenser', { document: { name: 'HQ', location: { site: 'HQ' } } })).status).toBe(409);
    const refused = (await entriesOf(s, 'group.create')).find((e) => e.outcome === 'failure');
    expect(refused).toMatchObject({ target_name: 'HQ', changes: null });
    expect(refused.reason).toBeTruthy();
  });

  it('records a delete refused while in use, then each delete with what was deleted', async () => {
    expect((await req('DELETE', 'site/HQ')).status).toBe(409);
    const refused = await only('site.delete');
    expect(refused).toMatchObject({ outcome: 'failure', target_name: 'HQ' });
    expect(refused.reason).toBe('Site in use');

    for (const path of [`device/${device}`, 'dispenser/HQ', 'kiosk/K1', 'site/HQ'])
      expect((await req('DELETE', path)).status).toBe(200);
    const [group] = await entriesOf(s, 'group.delete');
    expect(group).toMatchObject({ target_name: 'HQ', outcome: 'success' });
    expect(group.changes.before).toMatchObject({ name: 'HQ', capacity: 2 });
    expect((await only('kiosk.delete')).changes.before).toMatchObject({ name: 'K1', description: 'hall' });
    const site = (await entriesOf(s, 'site.delete')).find((e) => e.outcome === 'success');
    expect(site.changes.before).toMatchObject({ name: 'HQ', description: 'Head office' });
  });

  it('records a dataview created, changed (its content as changed only) and deleted', async () => {
    const owner = `adm_${acme}`;
    const doc = { name: 'lobby', description: 'Lobby', version: '1', owner };
    expect((await req('POST', 'dataview', { document: doc })).status).toBe(201);
    const created = await only('dataview.create');
    expect(created).toMatchObject({ entity: acme, target_type: 'dataview', target_name: 'lobby' });
    expect(created.changes.after).toMatchObject({ name: 'lobby', owner, version: '1' });
    expect(created.changes.after.content).toBeUndefined();

    const content = { format: 1, name: 'x', displayName: 'Shown', layout: { items: [] } };
    const set = { version: '2', content };
    expect((await req('PUT', 'dataview/lobby', { operator: { $set: set } })).status).toBe(200);
    const updated = await only('dataview.update');
    expect(updated.changes).toEqual({ before: { version: '1' }, after: { version: '2' } });
    expect(updated.details).toEqual({ content_changed: true });
    expect((await req('POST', 'dataview', { document: doc })).status).toBe(409);
    const refused = (await entriesOf(s, 'dataview.create')).find((e) => e.outcome === 'failure');
    expect(refused).toMatchObject({ target_name: 'lobby', reason: 'Dataview name taken in this entity' });

    expect((await req('DELETE', 'dataview/lobby')).status).toBe(200);
    expect((await only('dataview.delete')).changes.before).toMatchObject({ name: 'lobby', version: '2' });
  });

  it('records a beacon configuration created, changed and deleted, named by its MAC', async () => {
    const form = { ...beaconForm('c3a1b2d4e5f6'), patient_name: 'Pat' };
    const made = await req('POST', 'beacon-configs', form);
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    const created = await only('beacon_config.create');
    expect(created).toMatchObject({ entity: acme, target_type: 'beacon_config', target_name: 'c3a1b2d4e5f6' });
    expect(created.changes.after).toMatchObject({ patient_name: 'Pat', room_number: '101' });

    expect((await req('PUT', `beacon-configs/${id}`, { room_number: '102' })).status).toBe(200);
    const updated = await only('beacon_config.update');
    expect(updated.changes).toEqual({ before: { room_number: '101' }, after: { room_number: '102' } });
    expect((await req('DELETE', `beacon-configs/${id}`)).status).toBe(200);
    const deleted = await only('beacon_config.delete');
    expect(deleted).toMatchObject({ target_name: 'c3a1b2d4e5f6', outcome: 'success' });
    expect(deleted.changes.before).toMatchObject({ patient_name: 'Pat', room_number: '102' });
  });

  it("shows none of them to another entity's admin, by any filter", async () => {
    const mine = await s.request('GET', `/api/v1/tenant/${acme}/audit?target_type=site`, { token: token.admin });
    expect(mine.body.total).toBeGreaterThanOrEqual(4);
    const queries = ['target_type=site', 'target_name=HQ', 'search=HQ', 'action=group.create', 'search=lobby'];
    for (const q of [...queries, 'target_type=beacon_config', 'action=dataview.update']) {
      const theirs = await s.request('GET', `/api/v1/tenant/${globex}/audit?${q}`, { token: token.globexAdmin });
      expect(theirs.status).toBe(200);
      expect(theirs.body).toEqual({ data: [], total: 0, total_is_lower_bound: false });
      const across = await s.request('GET', `/api/v1/tenant/${acme}/audit?${q}`, { token: token.globexAdmin });
      expect([403, 404]).toContain(across.status);
    }
  });
});
