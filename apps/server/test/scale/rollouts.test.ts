import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { registerDevice } from '../helpers/devices.ts';
import { startPeer, type TestServer } from '../helpers/server.ts';
import { readEvents } from '../helpers/sse.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

/**
 * One rollout, two API instances on one PostgreSQL and one Redis: both step it at once, and
 * each device is still sent its update once; a change made on one reaches the other's event
 * streams (scale mode only).
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  throw new Error('The scale suite needs DATABASE_URL and REDIS_URL (see scripts/ci/with-services.sh)');
}

let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;
let ACME = '';
let admin = '';
let fw = '';

beforeAll(async () => {
  const started = await startForUploads();
  ({ s: a, acme: ACME } = started);
  admin = started.tokens.admin;
  b = await startPeer(a);
  const up = await upload(a, `/api/v1/tenant/${ACME}/firmware`, admin, {
    field: 'firmware_file',
    fields: { level: 'entity', entity_id: ACME, version: '3.0.0', device_type: 'CC1', description: '' },
    bytes: 1000,
  });
  fw = up.body.data.id;
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('a rollout on two instances', () => {
  it('is driven by one at a time: racing steps send each device its update once; events reach both', async () => {
    const p = randomBytes(4).toString('hex');
    const names = Array.from({ length: 12 }, (_, i) => `${p}${i.toString(16).padStart(4, '0')}`);
    for (const n of names) await registerDevice(a, admin, ACME, n);
    const created = await a.request('POST', `/api/v1/tenant/${ACME}/rollouts`, {
      token: admin,
      body: {
        name: `two ${p}`,
        firmware_id: fw,
        target: { kind: 'filter', query: `search=${p}` },
        canary: 0,
        max_in_flight: 5,
      },
    });
    const id = created.body.data.id as string;
    const seen = readEvents(`${b.url}/api/v1/tenant/${ACME}/rollouts/events`, admin, {
      stopAfter: (e) => e.event === 'rollout' && e.data.id === id,
    });
    await new Promise((r) => setTimeout(r, 200)); // the stream is open before the change it waits for
    expect(
      (await a.request('POST', `/api/v1/tenant/${ACME}/rollouts/${id}/start`, { token: admin, body: {} })).status,
    ).toBe(200);
    expect((await seen).events.some((e) => e.event === 'rollout' && e.data.id === id)).toBe(true);
    // Sleeping devices never answer: each step may claim up to the room left, never a device twice.
    for (let round = 0; round < 3; round++) {
      await Promise.all([a.app.rollouts.engine.tick(), b.app.rollouts.engine.tick(), a.app.rollouts.engine.tick()]);
    }
    const sent = rowsOf<{ device: string; n: string }>(
      await a.app.db.execute(
        sql`select device, count(*) as n from commands where device like ${`${p}%`} group by device`,
      ),
    );
    expect(sent).toHaveLength(5);
    expect(sent.every((x) => x.n === '1')).toBe(true);
    const inFlight = (await b.request('GET', `/api/v1/tenant/${ACME}/rollouts/${id}`, { token: admin })).body.data;
    expect(inFlight.counts).toMatchObject({ in_flight: 5, waiting: 7 });
  });
});
