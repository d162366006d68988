// What one command costs the database (issue 32): on the embedded database every statement and
// every transaction's BEGIN/COMMIT is a round trip on its one connection, so a command round trip
// is kept to one statement for the row with its audit entry and one for the reply's settlement
// with its entry (bench/notes/command-round-trip.md lists them all).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { insertSends, type OneSend } from '../../src/domain/command/insert-sends.ts';
import type { TestServer } from '../helpers/server.ts';
import {
  autoReply,
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
  type TestDevice,
} from '../helpers/devices.ts';

let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';
let dev: TestDevice;
let name = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities());
  name = hex();
  dev = await connectDevice(s, ACME, await registerDevice(s, root, ACME, name));
  autoReply(dev);
  await eventually(async () => {
    const res = await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: root });
    expect(res.body.data.online).toBe(true);
  });
});
afterAll(async () => {
  await dev?.close();
  await s?.close();
});

interface Statement {
  text: string;
  values: readonly unknown[];
}

/** Every statement the server sends the database while `fn` runs, with its parameters. */
async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; seen: Statement[] }> {
  const seen: Statement[] = [];
  const probe = s.app.database.probe;
  probe.traceQuery = (text, values) => seen.push({ text: text.replace(/\s+/g, ' ').trim(), values });
  try {
    return { result: await fn(), seen };
  } finally {
    probe.traceQuery = null;
  }
}

describe('a command to one device, sent and answered', () => {
  it('costs two statements, each with its audit entry, and no transaction of its own', async () => {
    const { result: res, seen } = await statementsOf(() =>
      s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/${name}`, {
        token: root,
        body: { payload: { type: 'vibrate', song: 'V10' } },
      }),
    );
    expect(res.status).toBe(200);
    const id: string = res.body.data.id;
    // Other work runs meanwhile (sweeps, flushes); this command's statements carry its id.
    const mine = seen.filter((st) => st.values.some((v) => String(v).includes(id)));
    expect(mine.map((st) => st.text.match(/^with \w+ as \( ?(insert into commands|update commands)/)?.[1])).toEqual([
      'insert into commands',
      'update commands',
    ]);
    for (const st of mine) expect(st.text).toContain('insert into audit_entries');

    const entries = await s.request('GET', `/api/v1/tenant/${ACME}/audit?action=command.send`, { token: root });
    const phases = entries.body.data
      .filter((e: any) => e.details?.command_id === id)
      .map((e: any) => [e.details.phase, e.details.state, e.outcome]);
    expect(phases.sort()).toEqual([
      ['sent', 'sent', 'success'],
      ['settled', 'succeeded', 'success'],
    ]);
  });
});

describe('replies that come while a settling statement runs', () => {
  it('are settled together by the next statement, each with its entry, and a repeated reply settles nothing', async () => {
    const other = hex();
    const held = await connectDevice(s, ACME, await registerDevice(s, root, ACME, other));
    try {
      // The device answers nothing until the three commands are all waiting, then all three at once.
      const ids: string[] = [];
      held.client.on('message', (topic, payload) => {
        if (!topic.endsWith('/cmd')) return;
        ids.push(JSON.parse(payload.toString()).id);
        if (ids.length < 3) return;
        for (const id of [ids[0], ...ids]) void held.publish('reply', { id, status: 'success' });
      });
      await eventually(async () => {
        const res = await s.request('GET', `/api/v1/tenant/${ACME}/device/${other}`, { token: root });
        expect(res.body.data.online).toBe(true);
      });
      const { result, seen } = await statementsOf(() =>
        Promise.all(
          [1, 2, 3].map(() =>
            s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/${other}`, {
              token: root,
              body: { payload: { type: 'vibrate', song: 'V10' } },
            }),
          ),
        ),
      );
      expect(result.map((r) => r.status)).toEqual([200, 200, 200]);
      // Four replies (the first twice): the first settles at once, the rest come while it runs.
      const settling = seen.filter((st) => /^with settled as \( ?update commands/.test(st.text));
      expect(settling.filter((st) => st.values.some((v) => ids.some((id) => String(v).includes(id)))).length).toBe(2);
      const entries = await s.request('GET', `/api/v1/tenant/${ACME}/audit?action=command.send`, { token: root });
      const settled = entries.body.data.filter(
        (e: any) => e.details?.phase === 'settled' && ids.includes(e.details.command_id),
      );
      expect(settled.map((e: any) => e.details.command_id).sort()).toEqual([...ids].sort());
    } finally {
      await held.close();
    }
  });
});

describe('sends gathered into one statement', () => {
  it("write each row with its entry, and find a device only in its own send's entity", async () => {
    const actor = { sub: 'root', entity: null, subtype: 'superadmin', permissions: [], typ: 'access', iat: 0, exp: 0 };
    const send = (entity: string, device: string): OneSend => ({
      id: randomUUID(),
      actor: actor as AccessClaims,
      entity,
      name: device,
      req: { payload: { type: 'vibrate', song: 'V10' } },
      audit: { actor: { kind: 'account', id: 'root', name: 'root' }, address: null, userAgent: null, entity },
    });
    // The same device named from the other entity, and a device that does not exist: neither is written.
    const sends = [send(ACME, name), send(GLOBEX, name), send(ACME, hex()), send(ACME, name)];
    const rows = await insertSends(s.app.db, sends);
    expect(rows.map((r) => r && [r.id, r.entity, r.device, r.state])).toEqual([
      [sends[0]!.id, ACME, name, 'sent'],
      null,
      null,
      [sends[3]!.id, ACME, name, 'sent'],
    ]);
    for (const entity of [ACME, GLOBEX]) {
      const entries = await s.request('GET', `/api/v1/tenant/${entity}/audit?action=command.send`, { token: root });
      const ids = entries.body.data
        .filter((e: any) => sends.some((x) => x.id === e.details?.command_id))
        .map((e: any) => [e.details.command_id, e.details.phase, e.details.state, e.target.name]);
      expect(ids.sort()).toEqual(
        entity === ACME ? [sends[0]!, sends[3]!].map((x) => [x.id, 'sent', 'sent', name]).sort() : [],
      );
    }
  });
});
