import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconForm } from '../helpers/beacons.ts';
import { randomDeviceId, registerDevice, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

/**
 * Every `tenant/{entity}/…` route answers 404 `Entity not found` in the `errorInfo` envelope when
 * the superadmin names an entity that does not exist: lists, creates, commands and account create
 * alike. Anyone else naming an entity not theirs gets one answer whether it exists or not.
 */

let s: TestServer;
let root = '';
let acme = '';
let globex = '';
const device = randomDeviceId();
let admin = '';
const adminName = `adm_${randomBytes(4).toString('hex')}`;
const missing = `no_such_${randomBytes(3).toString('hex')}`;
const fresh = () => randomBytes(4).toString('hex');

/**
 * One route of each entity-scoped family: method, path under `tenant/{entity}/` (`:entity` stands
 * for the entity), body, and its answer in an existing entity.
 */
type Route = [string, string, (entity: string) => unknown, number];
const routes = (): Route[] => [
  ['GET', 'account', () => undefined, 200],
  ['GET', 'device', () => undefined, 200],
  ['GET', 'device/facets', () => undefined, 200],
  ['GET', `device/${device}/commands`, () => undefined, 200],
  ['GET', `device/${device}/allocations`, () => undefined, 200],
  ['GET', 'site', () => undefined, 200],
  ['GET', 'kiosk', () => undefined, 200],
  ['GET', 'dispenser', () => undefined, 200],
  ['GET', 'dataview', () => undefined, 200],
  ['GET', 'beacon-configs', () => undefined, 200],
  ['GET', 'beacon-events', () => undefined, 200],
  ['GET', 'files?level=entity&entity_id=:entity', () => undefined, 200],
  ['GET', 'firmware?level=entity&entity_id=:entity', () => undefined, 200],
  ['GET', 'config', () => undefined, 200],
  ['GET', `account/${adminName}/tokens`, () => undefined, 200],
  [
    'POST',
    'account',
    (entity) => ({
      document: {
        name: `acc_${fresh()}`,
        email: 'a@x.test',
        password: 'password-1',
        subtype: 'operator',
        entity,
        access: [],
      },
    }),
    201,
  ],
  ['POST', 'dataview', () => ({ document: { name: `dv_${fresh()}`, version: '1', owner: adminName } }), 201],
  ['POST', 'site', () => ({ document: { name: `site_${fresh()}`, gps_coordinates: [52.52, 13.405] } }), 201],
  ['POST', 'beacon-configs', () => beaconForm(randomBytes(6).toString('hex')), 201],
  ['POST', 'mqtt/general/entity', () => ({ payload: { type: 'reboot' } }), 200],
  ['POST', 'mqtt/general/devices', () => ({ devices: [device], payload: { type: 'reboot' } }), 200],
  ['DELETE', 'device/all', () => undefined, 200],
];

const call = (token: string, method: string, entity: string, tail: string, body: unknown) =>
  s.request(method, `/api/v1/tenant/${entity}/${tail.replace(':entity', entity)}`, { token, body });

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities({}, { shared: true }));
  await registerDevice(s, root, acme, device);
  admin = (await createAccount(s, root, { name: adminName, entity: acme, subtype: 'admin' })).access_token;
});
afterAll(async () => s?.close());

describe('the superadmin naming an entity that does not exist', () => {
  it.each(routes())('%s tenant/{missing}/%s answers 404 Entity not found', async (method, tail, body) => {
    const res = await call(root, method, missing, tail, body(missing));
    expect(res.status, res.text).toBe(404);
    expect(res.body).toEqual({
      errorInfo: { code: 404, userMessage: 'Entity not found', developerMessage: 'Entity not found' },
    });
  });

  it.each(routes())('%s tenant/{existing}/%s works', async (method, tail, body, status) => {
    const res = await call(root, method, acme, tail, body(acme));
    expect(res.status, res.text).toBe(status);
  });
});

describe('a tenant admin naming an entity not its own', () => {
  it.each(routes())('%s tenant/{other}/%s answers alike whether it exists or not', async (method, tail, body) => {
    const other = await call(admin, method, globex, tail, body(globex));
    const none = await call(admin, method, missing, tail, body(missing));
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect({ status: none.status, body: none.body }).toEqual({ status: other.status, body: other.body });
  });
});

describe('a tenant user whose entity was deleted', () => {
  it('is signed out, so its own entity needs no check: 401, not an empty list', async () => {
    const doomed = `doomed_${fresh()}`;
    await s.request('POST', '/api/v1/tenant', {
      token: root,
      body: { document: { name: { name: doomed, description: '' } } },
    });
    const member = await createAccount(s, root, { name: `m_${fresh()}`, entity: doomed, subtype: 'admin' });
    expect((await call(member.access_token, 'GET', doomed, 'device', undefined)).status).toBe(200);
    expect((await s.request('DELETE', `/api/v1/tenant/${doomed}`, { token: root })).status).toBe(200);
    const res = await call(member.access_token, 'GET', doomed, 'device', undefined);
    expect(res.status, res.text).toBe(401);
  });
});
