import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../src/db/schema.ts';
import { randomDeviceId } from '../helpers/devices.ts';
import { ADMIN, type TestServer } from '../helpers/server.ts';
import { sharedServer } from '../helpers/shared-server.ts';
import { signIn } from '../helpers/session.ts';

// On the worker's shared server (helpers/shared-server.ts): entities, accounts and device ids of
// the file's own (every id starts with its 6 hex digits P), and the landlord's list read by P.
const P = randomDeviceId().slice(0, 6);
const [ACME, GLOBEX, BOSS, OPER] = ['acme', 'globex', 'boss', 'oper'].map((n) => `${n}_${P}`) as [
  string,
  string,
  string,
  string,
];
let s: TestServer;
let root = '';
let boss = '';
let oper = '';
const hex = (n: number) => P + n.toString(16).padStart(6, '0');
const [FRONT, CERT, DENIED, RENAMED] = [hex(0xf00), hex(0xc00), hex(0xd00), hex(0xe00)];
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await sharedServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of [ACME, GLOBEX]) {
    await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description: '' } } } });
  }
  const mk = (name: string, subtype: string) =>
    s.request('POST', '/api/v1/account', {
      token: root,
      body: {
        document: {
          name,
          email: `${name}@x.test`,
          password: 'password-1',
          subtype,
          entity: ACME,
          access: subtype === 'admin' ? ['all'] : [],
        },
      },
    });
  await mk(BOSS, 'admin');
  await mk(OPER, 'operator');
  boss = (await signIn(s, BOSS, 'password-1')).access_token;
  oper = (await signIn(s, OPER, 'password-1')).access_token;
  // 40 acme devices with a spread of states, batteries, firmware and ages; 5 globex devices.
  const now = Date.now();
  const states = ['ALLOCATED', 'ERROR', 'WAITING', null];
  await s.app.db.insert(devices).values([
    ...Array.from({ length: 40 }, (_, i) => ({
      name: hex(0xa00 + i),
      entity: ACME,
      description: i % 10 === 0 ? `Lobby unit ${i}` : `unit ${i}`,
      state_current: states[i % 4],
      battery: i % 5 === 4 ? null : (i * 7) % 101,
      is_charging: i % 3 === 0,
      fw_version: i % 2 ? '1.2.0' : '1.3.1',
      mqtt_secret_hash: 'x',
      created_at: new Date(now - i * 24 * HOUR),
      updated_at: new Date(now - i * 60_000),
    })),
    ...Array.from({ length: 5 }, (_, i) => ({
      name: hex(0xb00 + i),
      entity: GLOBEX,
      mqtt_secret_hash: 'x',
      description: 'Lobby unit',
    })),
  ]);
});
afterAll(async () => s?.close());

const list = (query: string, token = boss) => s.request('GET', `/api/v1/tenant/${ACME}/device?${query}`, { token });
const names = (body: { data: { name: string }[] }) => body.data.map((d) => d.name);

describe('creating devices', () => {
  it('answers the device and its MQTT credentials once', async () => {
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: boss,
      body: {
        document: {
          name: FRONT,
          description: 'Front desk',
          mac_1: '240ac40a2e48ab3a',
          mac_2: '23432',
          version_id: 'v7',
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('Device created');
    expect(res.body.data).toMatchObject({
      name: FRONT,
      entity: ACME,
      manufacturing_type: 'CC1',
      mac_1: '240ac40a2e48ab3a',
      state: { current: null },
    });
    expect(res.body.data.mqtt).toEqual({
      username: FRONT,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    const again = await s.request('GET', `/api/v1/tenant/${ACME}/device/${FRONT}`, { token: boss });
    expect(again.body.data).not.toHaveProperty('mqtt');
    expect(again.text).not.toContain(res.body.data.mqtt.password);
  });

  it('gives each field the spec message', async () => {
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: boss,
      body: { document: { name: '240AC40A2E48', mac_1: '240ac40a2e48', mac_2: '123', manufacturing_type: 'CC3' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorInfo.details).toMatchObject({
      'document.name': ['Has to be a 12 hex lower case digit string (eg "240ac40a2e48")'],
      'document.mac_1': ['Has to be a 16 hex lower case digit string (eg "240ac40a2e48ab3a")'],
      'document.mac_2': ['Has to be a 4 to 16 decimal digit string (eg "23432")'],
    });
    expect(res.body.errorInfo.details['document.manufacturing_type']).toBeDefined();
  });

  it('refuses an id registered in any entity without saying where', async () => {
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: boss,
      body: { document: { name: hex(0xb00) } },
    });
    expect(res.status).toBe(409);
    expect(res.text).not.toContain(GLOBEX);
  });

  it('refuses a certificate over 100000 bytes and accepts a PEM one', async () => {
    const pem = (body: string) => `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`;
    const big = await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: boss,
      body: { document: { name: CERT, X509_certificate: pem('A'.repeat(100_001)) } },
    });
    expect(big.body.errorInfo.details['document.X509_certificate']).toEqual([
      'File is too big. Only files up to 100000 Bytes are allowed.',
    ]);
    const ok = await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
      token: boss,
      body: { document: { name: CERT, X509_certificate: pem('MFkwEw') } },
    });
    expect(ok.body.data.has_certificate).toBe(true);
  });

  it('lets operators read but not change the registry', async () => {
    expect((await list('limit=1', oper)).status).toBe(200);
    expect(
      (
        await s.request('POST', `/api/v1/tenant/${ACME}/device`, {
          token: oper,
          body: { document: { name: DENIED } },
        })
      ).status,
    ).toBe(403);
  });
});

describe("another entity's devices", () => {
  it('answer 404 on every path and never appear in lists', async () => {
    const other = hex(0xb01);
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/v1/tenant/${ACME}/device/${other}`],
      ['PUT', `/api/v1/tenant/${ACME}/device/${other}`, { operator: { $set: { description: 'x' } } }],
      ['DELETE', `/api/v1/tenant/${ACME}/device/${other}`],
      ['POST', `/api/v1/tenant/${ACME}/device/${other}/credentials`],
      ['GET', `/api/v1/tenant/${GLOBEX}/device`],
      ['GET', `/api/v1/tenant/${GLOBEX}/device/${other}`],
    ];
    for (const [method, path, body] of paths) {
      const res = await s.request(method, path, { token: boss, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).not.toHaveProperty('data');
    }
    const all = await list('limit=0');
    expect(names(all.body)).not.toContain(other);
    expect(all.body.total).toBe(all.body.data.length);
  });
});

describe('listing', () => {
  it('pages with a total, newest first by default', async () => {
    const first = await list('limit=10&offset=0&search=unit');
    expect(first.body.total).toBe(40);
    expect(names(first.body)[0]).toBe(hex(0xa00));
    const second = await list('limit=10&offset=10&search=unit');
    expect(names(second.body)[0]).toBe(hex(0xa0a));
  });

  it('answers deep pages read from the far end exactly as forward paging would', async () => {
    const all = names((await list('limit=0&sort=battery&order=asc&search=unit')).body);
    for (const offset of [0, 15, 21, 30, 35, 39]) {
      const page = await list(`limit=10&offset=${offset}&sort=battery&order=asc&search=unit`);
      expect(names(page.body), `offset ${offset}`).toEqual(all.slice(offset, offset + 10));
    }
    expect((await list('limit=10&offset=400')).body.data).toEqual([]);
  });

  it('filters by status, battery band, charging, firmware and creation date in the database', async () => {
    const total = async (q: string) => (await list(`limit=1&search=unit&${q}`)).body.total;
    expect(await total('status=ERROR')).toBe(10);
    const rows = (await list('limit=0&search=unit')).body.data as {
      battery: number | null;
      is_charging: boolean;
      fw_version: string;
      created_at: string;
    }[];
    expect(await total('battery=High')).toBe(rows.filter((d) => d.battery !== null && d.battery > 75).length);
    expect(await total('battery=Medium')).toBe(
      rows.filter((d) => d.battery !== null && d.battery > 50 && d.battery <= 75).length,
    );
    expect(await total('battery=Low')).toBe(rows.filter((d) => d.battery !== null && d.battery <= 50).length);
    // Charging is a battery's state: a device charging with no battery reading (a gateway) is not listed.
    expect(rows.some((d) => d.is_charging && d.battery === null)).toBe(true);
    expect(await total('battery=Charging')).toBe(rows.filter((d) => d.is_charging && d.battery !== null).length);
    expect(await total('fw_version=1.3.1')).toBe(20);
    expect(await total('created=24h')).toBe(1);
    expect(await total('created=1w')).toBe(7);
    expect(await total('created=30d')).toBe(30);
    expect(await total('created=365d')).toBe(40);
    expect((await list('limit=1&battery=Huge')).status).toBe(400);
  });

  it('searches ids and descriptions, with LIKE wildcards taken literally', async () => {
    expect((await list('limit=50&search=lobby')).body.total).toBe(4);
    expect(names((await list(`limit=50&search=${hex(0xa0f)}`)).body)).toEqual([hex(0xa0f)]);
    expect((await list('limit=50&search=%25')).body.total).toBe(0);
  });

  it('sorts by every column with nulls last', async () => {
    for (const sort of ['name', 'created_at', 'updated_at', 'battery', 'fw_version', 'state']) {
      for (const order of ['asc', 'desc']) expect((await list(`limit=5&sort=${sort}&order=${order}`)).status).toBe(200);
    }
    const byBattery = (await list('limit=0&sort=battery&order=desc&search=unit')).body.data as {
      battery: number | null;
    }[];
    expect(byBattery.at(-1)!.battery).toBeNull();
    expect(byBattery[0]!.battery).toBe(Math.max(...byBattery.map((d) => d.battery ?? -1)));
  });

  it('streams every device for limit 0 as one JSON answer', async () => {
    const res = await list('limit=0');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.total).toBe(res.body.data.length);
    expect(res.body.total).toBeGreaterThanOrEqual(40);
  });

  it('gives the landlord every entity, filterable by entity', async () => {
    // Every entity's devices of the file's own (their ids start with P): acme's 40 and globex's 5.
    const all = await s.request('GET', `/api/v1/device?limit=100&search=${P}`, { token: root });
    expect(all.body.total).toBeGreaterThanOrEqual(45);
    expect(new Set(all.body.data.map((d: { entity: string }) => d.entity))).toEqual(new Set([ACME, GLOBEX]));
    const globex = await s.request('GET', `/api/v1/device?limit=100&entity=${GLOBEX}`, { token: root });
    expect(globex.body.total).toBe(5);
    expect((await s.request('GET', '/api/v1/device?limit=1', { token: boss })).status).toBe(403);
  });

  it('offers the filter values of the scope', async () => {
    const facets = await s.request('GET', `/api/v1/tenant/${ACME}/device/facets`, { token: boss });
    expect(facets.body).toEqual({
      fw_versions: ['1.2.0', '1.3.1'],
      states: ['ALLOCATED', 'ERROR', 'WAITING'],
      entities: [],
      groups: [],
      sites: [],
      kiosks: [],
    });
  });
});

describe('changing and deleting devices', () => {
  it('updates with $set, drops an unchanged name and renames on a changed one', async () => {
    const name = hex(0xa01);
    const res = await s.request('PUT', `/api/v1/tenant/${ACME}/device/${name}`, {
      token: boss,
      body: { operator: { $set: { name, description: 'Moved' } } },
    });
    expect(res.body).toMatchObject({ status: 'Device saved', data: { name, description: 'Moved' } });
    const renamed = await s.request('PUT', `/api/v1/tenant/${ACME}/device/${name}`, {
      token: boss,
      body: { operator: { $set: { name: RENAMED } } },
    });
    expect(renamed.body.data.name).toBe(RENAMED);
    const bad = await s.request('PUT', `/api/v1/tenant/${ACME}/device/${RENAMED}`, {
      token: boss,
      body: { operator: { $set: { battery: 5 } } },
    });
    expect(bad.status).toBe(400);
  });

  it('regenerates MQTT credentials', async () => {
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/device/${hex(0xa02)}/credentials`, { token: boss });
    expect(res.body.data).toEqual({ username: hex(0xa02), password: expect.any(String) });
  });

  it('deletes one device, then every device of the entity and no other', async () => {
    expect((await s.request('DELETE', `/api/v1/tenant/${ACME}/device/${hex(0xa03)}`, { token: boss })).body).toEqual({
      status: 'Device deleted',
    });
    const all = await s.request('DELETE', `/api/v1/tenant/${ACME}/device/all`, { token: boss });
    expect(all.body).toMatchObject({ status: 'All devices deleted' });
    expect((await list('limit=1')).body.total).toBe(0);
    expect((await s.request('GET', `/api/v1/device?limit=1&entity=${GLOBEX}`, { token: root })).body.total).toBe(5);
  });
});
