import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.ts';
import {
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
} from '../helpers/devices.ts';

// One device's bad message must never cost another device its data (issue 9).
let s: TestServer;
let root = '';
let ACME = '';
let GLOBEX = '';

beforeAll(async () => {
  ({ s, root, acme: ACME, globex: GLOBEX } = await startWithTwoEntities({}, { shared: true }));
});
afterAll(async () => s?.close());

const device = (entity: string, name: string) =>
  s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token: root }).then((r) => r.body.data);

describe('a device publishing text the database cannot store', () => {
  it('costs no other device a report, in its entity or another, and is counted', async () => {
    const bad = await connectDevice(s, ACME, await registerDevice(s, root, ACME, hex()));
    const good = await connectDevice(s, GLOBEX, await registerDevice(s, root, GLOBEX, hex()));
    const neighbour = await connectDevice(s, ACME, await registerDevice(s, root, ACME, hex()));
    const before = s.app.devices.stats.snapshot().dropped;
    const flood = setInterval(() => void bad.publish('state', { state: 'BOOT\u0000ING', fw_version: '\u0000' }), 25);
    try {
      for (let i = 1; i <= 10; i++) {
        await good.publish('state', { battery: 50 + i });
        await neighbour.publish('state', { battery: 70 + i });
        await new Promise((r) => setTimeout(r, 60));
      }
      await eventually(async () => {
        expect((await device(GLOBEX, good.name)).battery).toBe(60);
        expect((await device(ACME, neighbour.name)).battery).toBe(80);
      });
    } finally {
      clearInterval(flood);
    }
    const after = s.app.devices.stats.snapshot().dropped;
    expect(after.bad_text - before.bad_text).toBeGreaterThan(5);
    // The message still showed the device is alive; only its content was refused.
    const row = await device(ACME, bad.name);
    expect(row.state.current).toBeNull();
    expect(row.online).toBe(true);
    const ready = await s.request('GET', '/readyz');
    expect(ready.body.mqtt.dropped.bad_text).toBeGreaterThan(5);
    await Promise.all([bad.close(), good.close(), neighbour.close()]);
  });
});

describe('the telemetry writer', () => {
  it('splits a failing batch, keeps every good row and drops only the culprit, counted', async () => {
    const names = [hex(), hex(), hex(), hex(), hex()];
    for (const name of names) await registerDevice(s, root, GLOBEX, name);
    const telemetry = s.app.devices.telemetry;
    const before = s.app.devices.stats.snapshot().dropped.write_failed;
    const seenBefore = await device(GLOBEX, names[2]!);
    // Past the edge's checks, as if a future path forgot them: the writer is the last line.
    names.forEach((name, i) => telemetry.report(name, { battery: 10 + i }));
    telemetry.report(names[2]!, { state: 'bad\u0000state' });
    await telemetry.flush();
    for (const [i, name] of names.entries()) {
      if (i === 2) continue;
      expect((await device(GLOBEX, name)).battery).toBe(10 + i);
    }
    // The culprit keeps its sign of life; its unstorable report is dropped and counted.
    const culprit = await device(GLOBEX, names[2]!);
    expect(culprit.battery).toBe(seenBefore.battery);
    expect(Date.parse(culprit.updated_at)).toBeGreaterThan(Date.parse(seenBefore.updated_at));
    expect(s.app.devices.stats.snapshot().dropped.write_failed - before).toBe(1);
  });
});
