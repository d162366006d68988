import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, kiosks } from '../../src/db/schema.ts';
import { assertNoSecrets, entriesOf as entriesOfAll } from '../helpers/audit.ts';
import {
  autoReply,
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  type Credentials,
  type TestDevice,
} from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

// Issue 26: commands and firmware updates sent (the send with its rows, each outcome when it
// settles), allocations and returns, each with its entry; secrets (device passwords, signed
// links) in none; another entity sees none of them. On the worker's shared server: the entries
// read are its own entity's.
let s: TestServer;
let acme = '';
let globex = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const secrets: string[] = [];
const open: TestDevice[] = [];
const entriesOf = (srv: TestServer, action: string) => entriesOfAll(srv, action, { entities: [acme] });

beforeAll(async () => {
  ({ s, acme, globex, tokens: t } = await startForUploads({}, { shared: true }));
  const up = await upload(s, `/api/v1/tenant/${acme}/firmware`, t.admin, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: acme, version: '2.0.0', device_type: 'CC1', description: '' },
    bytes: randomBytes(1000),
  });
  expect(up.status).toBe(201);
  await s.app.db.insert(kiosks).values({ entity: acme, name: 'lobby', latitude: 1, longitude: 2 });
  await s.app.db.insert(groups).values({ entity: acme, name: 'lobby_a', kiosk: 'lobby', capacity: 5 });
});
afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
  await s?.close();
});

const post = (path: string, body: unknown, token = t.operator) => s.request('POST', path, { token, body });
const api = `/api/v1/tenant`;

/** A device of ACME, online, answering every command with `reply`. */
async function online(reply?: (cmd: any) => object) {
  const name = hex();
  const creds: Credentials = await registerDevice(s, t.admin, acme, name);
  secrets.push(creds.password);
  const dev = await connectDevice(s, acme, creds);
  open.push(dev);
  autoReply(dev, reply);
  await eventually(async () => {
    const res = await s.request('GET', `${api}/${acme}/device/${name}`, { token: t.admin });
    expect(res.body.data.online).toBe(true);
  });
  return name;
}
const ofDevice = async (action: string, name: string) =>
  (await entriesOf(s, action)).filter((e) => e.target_name === name);

describe('commands and firmware updates in the audit log', () => {
  it('records a command to one device when sent (by the account) and when it settles (by the device)', async () => {
    const name = await online();
    const res = await post(`${api}/${acme}/mqtt/general/${name}`, { payload: { type: 'vibrate', song: 'V10' } });
    expect(res.status).toBe(200);
    const [sent, settled] = await ofDevice('command.send', name);
    expect(sent).toMatchObject({
      entity: acme,
      actor_kind: 'account',
      target_type: 'device',
      outcome: 'success',
      details: {
        phase: 'sent',
        command: 'vibrate',
        args: { song: 'V10' },
        command_id: res.body.data.id,
        state: 'sent',
      },
    });
    expect(settled).toMatchObject({
      entity: acme,
      actor_kind: 'device',
      actor_name: name,
      outcome: 'success',
      details: { phase: 'settled', command: 'vibrate', state: 'succeeded', command_id: res.body.data.id },
    });
  });

  it("records the device's refusal with its reason, and a missing device as a failure", async () => {
    const name = await online(() => ({ status: 'error', error: 'motor jammed' }));
    expect(
      (await post(`${api}/${acme}/mqtt/general/${name}`, { payload: { type: 'vibrate', song: 'V10' } })).status,
    ).toBe(502);
    const settled = (await ofDevice('command.send', name)).at(-1);
    expect(settled).toMatchObject({ actor_kind: 'device', outcome: 'failure', reason: 'motor jammed' });
    const missing = hex();
    expect(
      (await post(`${api}/${acme}/mqtt/general/${missing}`, { payload: { type: 'vibrate', song: 'V10' } })).status,
    ).toBe(404);
    expect(await ofDevice('command.send', missing)).toMatchObject([{ outcome: 'failure', reason: 'Device not found' }]);
  });

  it('records a send to several devices, and one to the whole entity, as ONE entry with the count and the names', async () => {
    const [a, b] = [await online(), await online()];
    const res = await post(`${api}/${acme}/mqtt/general/devices`, {
      devices: [a, b],
      payload: { type: 'vibrate', song: 'V10' },
    });
    expect(res.status).toBe(200);
    const bulk = (await entriesOf(s, 'command.send')).filter((e) => e.target_type === 'command');
    expect(bulk).toHaveLength(1);
    expect(bulk[0]).toMatchObject({ target_name: 'vibrate', details: { phase: 'sent', count: 2 } });
    expect([...bulk[0].details.names].sort()).toEqual([a, b].sort());
    // Each device's outcome is its own entry, by the device.
    expect((await ofDevice('command.send', a)).map((e) => e.actor_kind)).toEqual(['device']);

    const all = await post(`${api}/${acme}/mqtt/general/entity?wait=true`, {
      payload: { type: 'vibrate', song: 'V10' },
    });
    expect(all.status).toBe(200);
    const whole = (await entriesOf(s, 'command.send')).filter((e) => e.target_type === 'command').at(-1);
    const counts = Object.values(all.body.data.counts as Record<string, number>);
    expect(whole.details.count).toBe(counts.reduce((a, b) => a + b, 0));
    expect(whole.details.names).toHaveLength(whole.details.count);
  });

  it('records a firmware update sent and its outcome, never its signed link', async () => {
    const name = await online((cmd) =>
      cmd.type === 'dfu' ? { status: 'success', data: { fw_version: cmd.payload.version } } : { status: 'success' },
    );
    const res = await post(`${api}/${acme}/mqtt/dfu/${name}`, {});
    expect(res.status).toBe(200);
    await eventually(async () => expect(await ofDevice('firmware.send', name)).toHaveLength(2));
    const [sent, settled] = await ofDevice('firmware.send', name);
    expect(sent).toMatchObject({ actor_kind: 'account', details: { phase: 'sent', command: 'dfu', version: '2.0.0' } });
    expect(settled).toMatchObject({ actor_kind: 'device', outcome: 'success', details: { version: '2.0.0' } });
    const none = await post(`${api}/${acme}/mqtt/dfu/${name}`, { firmware_id: '00000000-0000-4000-8000-000000000000' });
    expect(none.status).toBe(404);
    expect((await ofDevice('firmware.send', name)).at(-1)).toMatchObject({ outcome: 'failure' });
    const text = JSON.stringify(await entriesOf(s, 'firmware.send'));
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).not.toMatch(/sig=|expires=/);
  });
});

describe('allocations and returns in the audit log', () => {
  it('records an allocation and its return with before/after, a second allocation refused with its reason', async () => {
    const name = await online();
    expect((await post(`${api}/${acme}/dispenser/lobby_a/put/${name}`, {}, t.admin)).status).toBe(200);
    const KM = `/kiosk-manager/v1/kiosk/${acme}/lobby`;
    const network = '{"ssid": "guest", "password": "wifi-secret-42"}';
    secrets.push('wifi-secret-42');
    const res = await post(`${KM}/allocate`, { visitor: 'visitor_7', device: name, network }, t.admin);
    expect(res.status, res.text).toBe(200);
    expect((await post(`${KM}/allocate`, { visitor: 'other', device: name }, t.admin)).status).toBe(409);
    const [made, refused] = await ofDevice('allocation.create', name);
    expect(made).toMatchObject({ entity: acme, actor_kind: 'account', outcome: 'success' });
    expect(made.changes.before).toMatchObject({ group: 'lobby_a' });
    expect(made.changes.after).toMatchObject({
      kiosk: 'lobby',
      dispenser: 'lobby_a',
      visitor: 'visitor_7',
      network: true,
    });
    expect(refused).toMatchObject({ outcome: 'failure', reason: 'The device has an open allocation' });
    // Allocate and return commands are the allocation's own: no command.send entry of their sending.
    expect((await ofDevice('command.send', name)).every((e) => e.details.phase === 'settled')).toBe(true);

    const back = await post(`${KM}/return`, { device: name, dispenser: 'lobby_a' }, t.admin);
    expect(back.status, back.text).toBe(200);
    const [returned] = await ofDevice('allocation.return', name);
    expect(returned).toMatchObject({ outcome: 'success', details: { kiosk: 'lobby', dispenser: 'lobby_a' } });
    expect(returned.changes).toMatchObject({ before: { group: null }, after: { group: 'lobby_a' } });
    const again = await post(`${KM}/return`, { device: name, dispenser: 'lobby_a' }, t.admin);
    expect(again.status).toBe(409);
    expect((await ofDevice('allocation.return', name)).at(-1)).toMatchObject({ outcome: 'failure' });

    // The device's timeline shows the allocation and return once each (not again as audit entries),
    // and the refused allocation (which left no row) as an audit entry.
    const tl = await s.request('GET', `${api}/${acme}/device/${name}/timeline`, { token: t.admin });
    const types = tl.body.data.map((e: any) => (e.type === 'audit' ? `audit:${e.data.action}` : e.type));
    expect(types.filter((x: string) => x === 'allocation')).toHaveLength(1);
    expect(types.filter((x: string) => x === 'return')).toHaveLength(1);
    expect(types.filter((x: string) => x === 'audit:allocation.create')).toHaveLength(1);
    expect(types).not.toContain('audit:command.send');
  });
});

describe('what no entry holds and no other entity sees', () => {
  it('stores no device secret or wifi password, and shows none of them to another entity', async () => {
    // Every entry of the server is read; some of them the file's own.
    expect(await assertNoSecrets(s, secrets, { entities: [acme] })).toBeGreaterThan(0);
    for (const q of [
      'action=command.send',
      'action=firmware.send',
      'action=allocation.create',
      'target_type=command',
    ]) {
      const theirs = await s.request('GET', `${api}/${globex}/audit?${q}`, { token: t.other });
      expect(theirs.body).toEqual({ data: [], total: 0, total_is_lower_bound: false });
      expect([403, 404]).toContain((await s.request('GET', `${api}/${acme}/audit?${q}`, { token: t.other })).status);
    }
    const mine = await s.request('GET', `${api}/${acme}/audit?action=command.send`, { token: t.admin });
    expect(mine.body.total).toBeGreaterThan(5);
  });
});
