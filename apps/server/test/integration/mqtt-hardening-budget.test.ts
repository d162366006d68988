import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_BUDGET, startBudgetServer } from '../helpers/budget.ts';
import { connectDevice, connectRaw, eventually, randomDeviceId as hex, registerDevice } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

// Both modes: messages from the external broker pass the same budgets in the ingest; only the
// cut-off differs (embedded: the connection is closed and refused; external: dropped meanwhile).
let s: TestServer;
let root = '';
let ACME = '';
let battery: (name: string) => Promise<unknown>;
const { rate: RATE, burst: BURST } = STATE_BUDGET;

beforeAll(async () => {
  ({
    s,
    root,
    acme: ACME,
    battery,
  } = await startBudgetServer({ MQTT_BUDGET_CUTOFF_S: '1', MQTT_BUDGET_COOLDOWN_S: '120' }));
});
afterAll(async () => s?.close());

describe('per-device budgets', () => {
  it('drops and counts a flood, cuts the device off when it persists, and keeps serving the others', async () => {
    const creds = await registerDevice(s, root, ACME, hex());
    const flooder = await connectDevice(s, ACME, creds);
    // The embedded broker closes its connection: a reset, not a failure of the test.
    flooder.client.on('error', () => {});
    const other = await connectDevice(s, ACME, await registerDevice(s, root, ACME, hex()));
    const before = s.app.devices.stats.snapshot();
    const t0 = performance.now();
    let sent = 0;
    // About 2,000 state reports a second until the budget cuts the device off.
    while (!s.app.devices.budget.isCutOff(flooder.name) && performance.now() - t0 < 10_000) {
      for (let i = 0; i < 10 && flooder.client.connected; i++, sent++)
        flooder.client.publish(`fleet/${ACME}/${flooder.name}/state`, JSON.stringify({ battery: sent % 100 }));
      await new Promise((r) => setTimeout(r, 5));
    }
    const elapsed = (performance.now() - t0) / 1000;
    expect(s.app.devices.budget.isCutOff(flooder.name)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(1);

    await eventually(async () => {
      const after = s.app.devices.stats.snapshot();
      const received = after.received - before.received;
      const dropped = after.dropped.over_budget - before.dropped.over_budget;
      // Embedded: what was on the wire when the connection closed never arrives. External: the
      // other device's announce may reach the server after `before` was taken.
      expect(received).toBeLessThanOrEqual(sent + 1);
      // The burst and the sustained rate got through (the first report announced it online); the rest was dropped.
      expect(received - dropped).toBeLessThanOrEqual(BURST + Math.ceil(RATE * elapsed) + 1);
      expect(dropped).toBeGreaterThan(0);
      // External: everything sent is read and mostly dropped. Embedded: the device is paused
      // while over budget, so much of what it sent is never read (mqtt-budget-pause.test.ts).
      if (s.config.MQTT_URL) expect(dropped).toBeGreaterThan(sent / 2);
      else expect(after.paused - before.paused).toBeGreaterThan(0);
    });

    if (s.config.MQTT_URL) {
      // External broker: the server cannot close the device's connection; all it sends is dropped.
      await flooder.publish('state', { battery: 77 });
    } else {
      await eventually(async () => expect(flooder.client.connected).toBe(false));
      // Its reconnects are refused, right secret and all, with nothing but "try later".
      await expect(connectRaw(s, creds)).rejects.toThrow(/unavailable/i);
    }
    await other.publish('state', { battery: 33 });
    await eventually(async () => expect(await battery(other.name)).toBe(33));
    await s.app.devices.telemetry.flush();
    expect(await battery(flooder.name)).not.toBe(77);
    await other.close();
    await flooder.client.endAsync(true);
  });
});
