import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDevice } from '../helpers/alerts.ts';
import { startWithTwoEntities } from '../helpers/devices.ts';
import { startPeer, type TestServer } from '../helpers/server.ts';
import { readEvents } from '../helpers/sse.ts';

/** The header's alert count is live on every instance (scale mode: PostgreSQL and Redis). */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  throw new Error('The scale suite needs DATABASE_URL and REDIS_URL (see scripts/ci/with-services.sh)');
}

let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({
    s: a,
    root,
    acme: ACME,
    globex: GLOBEX,
  } = await startWithTwoEntities({
    JWT_SECRET: 'scale-test-secret-shared-by-both-instances-0123',
    ALERT_SWEEP_S: '0',
  }));
  b = await startPeer(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('the alert count', () => {
  it('rises and falls on a second instance as alerts are raised and cleared, and only for its entity', async () => {
    const d = await alertDevice(a, root, ACME);
    const seen: number[] = [];
    const stream = readEvents(`${b.url}/api/v1/tenant/${ACME}/alerts/events`, root, {
      onEvent: (e) => seen.push(e.data.active),
      stopAfter: (_e, all) => all.length >= 3,
    });
    while (seen.length < 1) await new Promise((r) => setTimeout(r, 20));
    // Either instance may take the report (shared subscriptions); the stream is on the second.
    await d.publish('state', { state: 'DEFECT' });
    while (seen.length < 2) await new Promise((r) => setTimeout(r, 20));
    await d.publish('state', { state: 'ALLOCATED' });
    await stream;
    expect(seen).toEqual([0, 1, 0]);
    const other = await readEvents(`${b.url}/api/v1/tenant/${GLOBEX}/alerts/events`, root, { stopAfter: () => true });
    expect(other.events[0]!.data).toEqual({ active: 0, acknowledged: 0 });
    await d.close();
  });
});
