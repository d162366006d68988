import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconForm } from '../helpers/beacons.ts';
import { randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * Smaller rules of issue 22 item 5: one size limit for a JSON info whatever its form, 404 for an
 * entity that does not exist on every create, and one rule for unpaired UTF-16 surrogates.
 */

let s: TestServer;
let root = '';
let acme = '';
const TOO_BIG = 'File is too big. Only files up to 100000 Bytes are allowed.';
const SURROGATE = 'Text may not contain an unpaired surrogate (U+D800 to U+DFFF)';

const call = (method: string, path: string, body?: unknown) => s.request(method, path, { token: root, body });
const setConfig = (set: Record<string, unknown>) =>
  call('PUT', `/api/v1/tenant/${acme}/config`, { operator: { $set: set } });

beforeAll(async () => {
  ({ s, root, acme } = await startWithTwoEntities({}, { shared: true }));
});
afterAll(async () => {
  await s?.close();
});

describe('a JSON info', () => {
  // About 150 kB serialised, well inside the 1 MiB body limit.
  const big = { rows: Array.from({ length: 10_000 }, (_, i) => ({ row: i, label: 'x' })) };

  it('over 100000 bytes is refused whether it is sent as a JSON value or as JSON text', async () => {
    for (const globalinfo of [big, JSON.stringify(big)]) {
      const res = await setConfig({ globalinfo });
      expect(res.status, res.text.slice(0, 300)).toBe(400);
      expect(res.body.errorInfo.details).toEqual({ 'operator.$set.globalinfo': [TOO_BIG] });
    }
    const group = await call('POST', `/api/v1/tenant/${acme}/dispenser`, {
      document: { name: 'big_group', configuration: big },
    });
    expect(group.status).toBe(400);
    expect(group.body.errorInfo.details['document.configuration']).toEqual([TOO_BIG]);
    const stored = await call('GET', `/api/v1/tenant/${acme}/config`);
    expect(stored.body.data.globalinfo).toBeNull();
  });

  it('within the limit is stored in either form', async () => {
    const small = { rows: big.rows.slice(0, 100) };
    expect((await setConfig({ globalinfo: small })).status).toBe(200);
    expect((await setConfig({ networkinfo: JSON.stringify(small) })).status).toBe(200);
    const stored = (await call('GET', `/api/v1/tenant/${acme}/config`)).body.data;
    expect(stored).toMatchObject({ globalinfo: small, networkinfo: small });
  });
});

describe('a landlord creating into an entity that does not exist', () => {
  const missing = 'no_such_entity';
  const creates: Array<[string, string, unknown]> = [
    ['device', 'device', { document: { name: randomDeviceId(), description: 'unit' } }],
    ['site', 'site', { document: { name: 'HQ', gps_coordinates: [52.52, 13.405] } }],
    ['kiosk', 'kiosk', { document: { name: 'lobby', location: { gps_coordinates: [52.52, 13.405] } } }],
    ['group', 'dispenser', { document: { name: 'lobby_a', capacity: 5 } }],
    ['beacon config', 'beacon-configs', beaconForm('c3a1b2d4e5f6')],
  ];
  it.each(creates)('gets 404 Entity not found for a %s', async (_what, path, body) => {
    const res = await call('POST', `/api/v1/tenant/${missing}/${path}`, body);
    expect(res.status, res.text).toBe(404);
    expect(res.body.errorInfo).toMatchObject({ code: 404, userMessage: 'Entity not found' });
  });
});

describe('an unpaired UTF-16 surrogate', () => {
  it('is refused in a text column, with the field named, and nothing is stored', async () => {
    const name = randomDeviceId();
    // JSON.stringify writes a lone surrogate as the escape "\ud800", which is what reaches the server.
    const res = await call('POST', `/api/v1/tenant/${acme}/device`, {
      document: { name, description: 'unit \ud800 one' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errorInfo).toMatchObject({
      code: 400,
      userMessage: SURROGATE,
      details: { 'document.description': [SURROGATE] },
    });
    expect((await call('GET', `/api/v1/tenant/${acme}/device/${name}`)).status).toBe(404);
  });

  it('is refused in a JSON column the same way, in values and in keys', async () => {
    for (const [globalinfo, where] of [
      [{ note: 'half \udc00 a pair' }, 'operator.$set.globalinfo.note'],
      [{ ['key\ud83d']: 1 }, 'operator.$set.globalinfo'],
    ] as const) {
      const res = await setConfig({ globalinfo });
      expect(res.status, res.text).toBe(400);
      expect(res.body.errorInfo).toMatchObject({ userMessage: SURROGATE, details: { [where]: [SURROGATE] } });
    }
  });

  it('in a whole pair (an emoji) is ordinary text', async () => {
    const res = await call('POST', `/api/v1/tenant/${acme}/device`, {
      document: { name: randomDeviceId(), description: 'unit \ud83d\ude00' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.description).toBe('unit 😀');
  });
});
