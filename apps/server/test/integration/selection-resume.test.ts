// A selection's run across a restart (issue 27; decision 2026-11-28-selection-resume): the server
// stops mid-run and starts again on the same database, and the run carries on from its resume
// point; a run whose holder died (its lease lapsed, a batch half written) is taken by one sweep
// only, and no device is acted on twice or forgotten.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { devices } from '../../src/db/schema.ts';
import { entriesOf } from '../helpers/audit.ts';
import { eventually, randomDeviceId, startWithTwoEntities } from '../helpers/devices.ts';
import { startPeer, type TestServer } from '../helpers/server.ts';
import { createAccount } from '../helpers/session.ts';

type Instance = Pick<TestServer, 'app' | 'request'>;
let s: TestServer;
let next: Instance & { close(): Promise<void> };
let acme = '';
let globex = '';
let ann = '';

const path = (id = '') => `/api/v1/tenant/${acme}/device-selection${id && `/${id}`}`;
const add = async (entity: string, n: number) => {
  const names = Array.from({ length: n }, randomDeviceId);
  await s.app.db.insert(devices).values(names.map((name) => ({ name, entity, mqtt_secret_hash: 'x', battery: 10 })));
  return names.sort();
};
const countLow = async (on: Instance) =>
  (await on.request('POST', path(), { token: ann, body: { query: 'battery=Low' } })).body.data.id as string;
const row = async (on: Instance, id: string) =>
  rowsOf<{ state: string; done: number; last: string | null; lease_until: string | null }>(
    await on.app.db.execute(sql`select state, done, last, lease_until from device_selections where id = ${id}::uuid`),
  )[0]!;
/** Each device the selection's commands went to, with how many it got. */
const commandsOf = async (on: Instance, id: string) =>
  rowsOf<{ device: string }>(
    await on.app.db.execute(sql`select device from commands where id = ${id}::uuid order by device`),
  ).map((r) => r.device);
const finished = (on: Instance, id: string) =>
  eventually(async () => {
    const { body } = await on.request('GET', path(id), { token: ann });
    if (body.data.state !== 'done') throw new Error(`still ${body.data.state}`);
    return body.data;
  }, 20_000);

let low: string[] = [];

beforeAll(async () => {
  const world = await startWithTwoEntities();
  ({ s, acme, globex } = world);
  ann = (await createAccount(s, world.root, { name: `ann_${acme}`, entity: acme, subtype: 'admin' })).access_token;
  low = await add(acme, 45);
  await add(globex, 5);
});

afterAll(async () => {
  await next?.close();
  await s?.close();
});

describe('a selection run across a restart', () => {
  it('stops mid-run with the server and resumes on the next start: every device once, the progress ends', async () => {
    const id = await countLow(s);
    let stopped: Promise<void> | undefined;
    s.app.selections.tuning = {
      size: 10,
      // After the second batch the instance stops, as a deploy would stop it.
      afterBatch: (_sel, done) => {
        if (done === 20) stopped = s.app.selections.stop();
      },
    };
    const sent = await s.request('POST', `${path(id)}/command`, { token: ann, body: { payload: { type: 'refresh' } } });
    expect(sent.status).toBe(202);
    await eventually(async () => expect(stopped).toBeDefined());
    await stopped;
    // The run let its lease go at once: the next start need not wait for it to lapse.
    const between = await row(s, id);
    expect(between).toMatchObject({ state: 'running', done: 20, last: low[19] });
    expect(new Date(between.lease_until!).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await commandsOf(s, id)).toEqual(low.slice(0, 20));
    await s.app.close();

    next = await startPeer(s);
    const end = await finished(next, id);
    expect(end).toMatchObject({ total: 45, done: 45, action: 'command' });
    expect(await commandsOf(next, id)).toEqual(low);
    const entries = (await entriesOf(next as TestServer, 'command.send')).filter((e) => e.details?.selection === id);
    expect(entries).toHaveLength(1);
  });

  it('a lapsed lease is taken by one sweep, which redoes the half-written batch without acting twice', async () => {
    const id = await countLow(next);
    const req = { payload: { type: 'refresh' as const, fields: ['state' as const] } };
    // The holder died after recording 10 devices and writing 3 more of its next batch.
    await next.app.db.execute(sql`update device_selections set action = 'command', state = 'running',
      args = ${JSON.stringify(req)}::jsonb, started_at = now(), lease_holder = 'dead', done = 10, last = ${low[9]!},
      lease_until = now() + interval '1 minute' where id = ${id}::uuid`);
    const written = low.slice(0, 13).map((device) => ({ device, entity: acme }));
    await next.app.devices.commands.toSelectionBatch({ sub: `ann_${acme}` } as AccessClaims, id, written, req);

    // Its lease still holds: no one takes the run. A second instance on the same database (scale mode).
    const peer = process.env.DATABASE_URL ? await startPeer(s) : undefined;
    try {
      expect(await next.app.selections.sweep()).toEqual([]);
      await next.app.db.execute(
        sql`update device_selections set lease_until = now() - interval '1 second' where id = ${id}::uuid`,
      );
      const taken = await Promise.all([next.app.selections.sweep(), (peer ?? next).app.selections.sweep()]);
      expect(taken.flat().filter((r) => r.id === id)).toHaveLength(1);
      expect(await finished(next, id)).toMatchObject({ total: 45, done: 45 });
    } finally {
      await peer?.close();
    }
    expect(await commandsOf(next, id)).toEqual(low);
  });
});
