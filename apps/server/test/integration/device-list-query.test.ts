// The device list's sorts, filters (OR within a field) and CSV export against hand-counted fixtures
// (issue 27), and another entity's devices never counted or exported by any filter value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_SORTS, DeviceExportQuerySchema } from '@fleet/shared/schemas/device';
import { devices, groups, kiosks, sites } from '../../src/db/schema.ts';
import { exportDevices } from '../../src/domain/device/export-devices.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

let s: TestServer;
let root = '';
let boss = '';
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

// acme: sites s1, s2; kiosk k1 at s1, k2 nowhere; g1 at s1, g2 in k1 (so at s1), g3 in k2 and at s2.
const D1 = 'a00000000001'; // g1 CC1 ALLOCATED 90%  online  seen 1 min ago, fw 1.0
const D2 = 'a00000000002'; // g2 CC2 ERROR     60%  asleep  seen 30 min ago (unresponsive), fw 2.0
const D3 = 'a00000000003'; // g3 CC1 WAITING   20%  never heard from (5 days), fw 1.0
const D4 = 'a00000000004'; // -  CC2 -         -    asleep  seen 2 h ago (unresponsive), no fw
const D5 = 'a00000000005'; // g1 CC2 ERROR     10%  online, charging, seen 10 s ago, fw 2.0
// globex: the same names of site, kiosk and group, with devices matching every acme filter.
const X1 = 'b00000000001';
const X2 = 'b00000000002';
const ACME = [D1, D2, D3, D4, D5];

beforeAll(async () => {
  s = await startServer();
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of ['acme', 'globex']) {
    await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description: '' } } } });
  }
  await s.request('POST', '/api/v1/account', {
    token: root,
    body: {
      document: {
        name: 'boss',
        email: 'boss@x.test',
        password: 'password-1',
        subtype: 'admin',
        entity: 'acme',
        access: ['all'],
      },
    },
  });
  boss = (await signIn(s, 'boss', 'password-1')).access_token;
  const db = s.app.db;
  for (const entity of ['acme', 'globex']) {
    await db.insert(sites).values(['s1', 's2'].map((name) => ({ entity, name, latitude: 1, longitude: 2 })));
    await db.insert(kiosks).values([
      { entity, name: 'k1', site: 's1' },
      { entity, name: 'k2', site: null },
    ]);
    await db.insert(groups).values([
      { entity, name: 'g1', site: 's1' },
      { entity, name: 'g2', kiosk: 'k1' },
      { entity, name: 'g3', kiosk: 'k2', site: 's2' },
    ]);
  }
  const now = Date.now();
  const at = (ago: number) => new Date(now - ago);
  const dev = (name: string, entity: string, v: Partial<typeof devices.$inferInsert>) => ({
    name,
    entity,
    mqtt_secret_hash: 'x',
    ...v,
  });
  await db.insert(devices).values([
    dev(D1, 'acme', {
      group: 'g1',
      state_current: 'ALLOCATED',
      battery: 90,
      is_charging: false,
      online: true,
      fw_version: '1.0',
      created_at: at(10 * DAY),
      updated_at: at(MIN),
    }),
    dev(D2, 'acme', {
      group: 'g2',
      manufacturing_type: 'CC2',
      state_current: 'ERROR',
      battery: 60,
      is_charging: false,
      fw_version: '2.0',
      created_at: at(9 * DAY),
      updated_at: at(30 * MIN),
    }),
    dev(D3, 'acme', {
      group: 'g3',
      state_current: 'WAITING',
      battery: 20,
      fw_version: '1.0',
      created_at: at(5 * DAY),
      updated_at: at(5 * DAY),
    }),
    dev(D4, 'acme', { manufacturing_type: 'CC2', created_at: at(3 * DAY), updated_at: at(120 * MIN) }),
    dev(D5, 'acme', {
      group: 'g1',
      manufacturing_type: 'CC2',
      state_current: 'ERROR',
      battery: 10,
      is_charging: true,
      online: true,
      fw_version: '2.0',
      created_at: at(DAY),
      updated_at: at(10_000),
    }),
    dev(X1, 'globex', {
      group: 'g1',
      manufacturing_type: 'CC2',
      state_current: 'ERROR',
      battery: 10,
      is_charging: true,
      online: true,
      fw_version: '2.0',
      created_at: at(DAY),
      updated_at: at(10_000),
    }),
    dev(X2, 'globex', { group: 'g3', state_current: 'WAITING', created_at: at(5 * DAY), updated_at: at(5 * DAY) }),
  ]);
});
afterAll(async () => s?.close());

const list = (query: string, token = boss, path = '/api/v1/tenant/acme/device') =>
  s.request('GET', `${path}?${query}`, { token });
const names = (body: { data: { name: string }[] }) => body.data.map((d) => d.name);
const csvIds = (text: string) =>
  text
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(',')[0]);

describe('sorting by every column', () => {
  const cases: [string, string[]][] = [
    ['sort=name&order=asc', [D1, D2, D3, D4, D5]],
    ['sort=name&order=desc', [D5, D4, D3, D2, D1]],
    // Quiet devices first, and their reverse.
    ['sort=updated_at&order=asc', [D3, D4, D2, D1, D5]],
    ['sort=updated_at&order=desc', [D5, D1, D2, D4, D3]],
    ['sort=created_at&order=desc', [D5, D4, D3, D2, D1]],
    // Nulls last either way; equal values in id order, reversed with the order.
    ['sort=group&order=asc', [D1, D5, D2, D3, D4]],
    ['sort=group&order=desc', [D3, D2, D5, D1, D4]],
    ['sort=state&order=asc', [D1, D2, D5, D3, D4]],
    ['sort=state&order=desc', [D3, D5, D2, D1, D4]],
    ['sort=fw_version&order=asc', [D1, D3, D2, D5, D4]],
    ['sort=battery&order=desc', [D1, D2, D3, D5, D4]],
    ['sort=battery&order=asc', [D5, D3, D2, D1, D4]],
    ['sort=entity&order=asc', [D1, D2, D3, D4, D5]],
  ];
  it.each(cases)('%s', async (query, expected) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(expected);
  });

  it('pages from either end without repeating or skipping a device, for every sort', async () => {
    for (const sort of DEVICE_SORTS) {
      for (const order of ['asc', 'desc']) {
        const whole = names((await list(`sort=${sort}&order=${order}&limit=50`)).body);
        const paged: string[] = [];
        for (let offset = 0; offset < 5; offset += 2) {
          paged.push(...names((await list(`sort=${sort}&order=${order}&limit=2&offset=${offset}`)).body));
        }
        expect(paged, `${sort} ${order}`).toEqual(whole);
      }
    }
  });

  it('sorts the landlord’s list by entity, then id', async () => {
    const res = await list('sort=entity&order=desc', root, '/api/v1/device');
    expect(names(res.body)).toEqual([X2, X1, D5, D4, D3, D2, D1]);
  });
});

describe('filters, several values of a field meaning OR', () => {
  const cases: [string, string[]][] = [
    ['site=s1', [D1, D2, D5]],
    ['site=s2', [D3]],
    ['site=s1&site=s2', [D1, D2, D3, D5]],
    ['kiosk=k1', [D2]],
    ['kiosk=k1&kiosk=k2', [D2, D3]],
    ['type=CC2', [D2, D4, D5]],
    ['seen=online', [D1, D5]],
    ['seen=unresponsive', [D2, D3, D4]],
    ['seen=never', [D3]],
    ['seen=online&seen=never', [D1, D3, D5]],
    ['status=ERROR', [D2, D5]],
    ['status=ERROR&status=WAITING', [D2, D3, D5]],
    ['battery=High&battery=Low', [D1, D3, D5]],
    ['battery=Charging', [D5]],
    ['fw_version=1.0&fw_version=2.0', [D1, D2, D3, D5]],
    ['group=g1&group=g3', [D1, D3, D5]],
    ['seen_after=24h', [D1, D2, D4, D5]],
    ['seen_before=24h', [D3]],
    [`seen_after=${encodeURIComponent(new Date(Date.now() - 60 * MIN).toISOString())}`, [D1, D2, D5]],
    // Fields AND together.
    ['site=s1&status=ERROR&seen=online', [D5]],
    ['status=&battery=', ACME],
  ];
  it.each(cases)('%s', async (query, expected) => {
    const res = await list(`${query}&sort=name&order=asc`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('refuses nonsense with a 400 naming the field', async () => {
    const bad = [
      'type=CC9',
      'seen=sometimes',
      'battery=Full',
      'seen_after=yesterday',
      'sort=colour',
      `status=${'A'.repeat(33)}`,
      Array.from({ length: 51 }, (_, i) => `status=S${i}`).join('&'),
    ];
    for (const query of bad) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errorInfo.code, query).toBeDefined();
      const file = await s.request('GET', `/api/v1/tenant/acme/device/export?${query}`, { token: boss });
      expect(file.status, query).toBe(400);
    }
  });

  it('never counts another entity’s devices, whatever the filter value', async () => {
    const queries = [
      'site=s1',
      'kiosk=k1',
      'kiosk=k2',
      'group=g1',
      'status=ERROR',
      'seen=online',
      'seen=never',
      'entity=globex',
      'type=CC2',
    ];
    for (const query of queries) {
      const res = await list(query);
      expect(
        names(res.body).some((n) => n.startsWith('b')),
        query,
      ).toBe(false);
      const file = await s.request('GET', `/api/v1/tenant/acme/device/export?${query}`, { token: boss });
      expect(
        csvIds(file.text).some((n) => n?.startsWith('b')),
        query,
      ).toBe(false);
    }
    expect((await s.request('GET', '/api/v1/tenant/globex/device/export', { token: boss })).status).toBe(404);
  });
});

describe('export', () => {
  it('streams the filtered, sorted list as CSV with the table’s columns and the spec’s dates', async () => {
    const res = await s.request(
      'GET',
      '/api/v1/tenant/acme/device/export?format=csv&status=ERROR&sort=battery&order=asc',
      {
        token: boss,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="devices-acme-${today}.csv"`);
    const [header, first, second, ...rest] = res.text.split('\r\n');
    expect(header).toBe('Device ID,Groups,Version,Status,Created Date,Last Updated,Battery,Charging');
    expect(first).toMatch(
      new RegExp(
        `^${D5},g1,2\\.0,ERROR,\\d\\d\\.\\d\\d\\.\\d{4},\\d\\d\\.\\d\\d\\.\\d{4} \\d\\d:\\d\\d:\\d\\d,10,yes$`,
      ),
    );
    expect(second?.startsWith(`${D2},g2,2.0,ERROR,`)).toBe(true);
    expect(rest).toEqual(['']);
  });

  it('equals the paged list for every sort, read in batches smaller than the list', async () => {
    for (const sort of DEVICE_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const query = DeviceExportQuerySchema.parse({ sort, order });
        let text = '';
        for await (const part of exportDevices(s.app.db, null, query, { batch: 2 })) text += part;
        const paged = names((await list(`sort=${sort}&order=${order}&limit=50`, root, '/api/v1/device')).body);
        expect(csvIds(text), `${sort} ${order}`).toEqual(paged);
      }
    }
  });

  it('gives the landlord every entity, with an Entity column, on the plain path', async () => {
    const res = await s.request('GET', '/api/v1/device/export?sort=name&order=asc&status=WAITING', { token: root });
    expect(res.status).toBe(200);
    expect(res.text.split('\r\n')[0]).toBe(
      'Device ID,Groups,Entity,Version,Status,Created Date,Last Updated,Battery,Charging',
    );
    expect(csvIds(res.text)).toEqual([D3, X2]);
    expect((await s.request('GET', '/api/v1/device/export', { token: boss })).status).toBe(403);
  });
});
