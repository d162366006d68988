import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_BUDGET, startBudgetServer } from '../helpers/budget.ts';
import { connectDevice, eventually, randomDeviceId as hex, registerDevice } from '../helpers/devices.ts';

// Embedded broker: a device over its budget is not read for a moment (TCP holds its flood back)
// and is read again after. External broker: the server cannot pause a device; the budget still
// drops the excess in the ingest.
let server: Awaited<ReturnType<typeof startBudgetServer>>;
const { rate: RATE, burst: BURST } = STATE_BUDGET;

// Long enough that nobody here is cut off.
beforeAll(async () => void (server = await startBudgetServer({ MQTT_BUDGET_CUTOFF_S: '600' })));
afterAll(async () => server?.s.close());

const connect = async () =>
  connectDevice(server.s, server.acme, await registerDevice(server.s, server.root, server.acme, hex()));

describe('pausing a device over budget', () => {
  it('never pauses a device within its budget, and reads all it sends', async () => {
    // Counted from before its announce, which on an external broker may arrive after it returns.
    const before = server.s.app.devices.stats.snapshot();
    const device = await connect();
    // The announce took one of the burst; the rest at once.
    for (let i = 1; i < BURST; i++) await device.publish('state', { battery: i });
    await eventually(async () => {
      await server.s.app.devices.telemetry.flush();
      expect(await server.battery(device.name)).toBe(BURST - 1);
    });
    const after = server.s.app.devices.stats.snapshot();
    expect(after.received - before.received).toBeGreaterThanOrEqual(BURST);
    expect(after.paused - before.paused).toBe(0);
    expect(after.dropped.over_budget - before.dropped.over_budget).toBe(0);
    await device.close();
  });

  it('pauses a flooding device instead of reading its flood, then reads it again', async () => {
    const flooder = await connect();
    const before = server.s.app.devices.stats.snapshot();
    const FLOOD = 300;
    for (let i = 0; i < FLOOD; i++)
      flooder.client.publish(`fleet/${server.acme}/${flooder.name}/state`, '{"battery":1}');
    // Read in pieces, a slice after each pause, until the whole flood is through.
    await eventually(
      async () =>
        expect(server.s.app.devices.stats.snapshot().received - before.received).toBeGreaterThanOrEqual(FLOOD),
      30_000,
    );
    const after = server.s.app.devices.stats.snapshot();
    expect(after.dropped.over_budget - before.dropped.over_budget).toBeGreaterThan(FLOOD - BURST - RATE * 30);
    if (server.s.config.MQTT_URL) expect(after.paused - before.paused).toBe(0);
    else expect(after.paused - before.paused).toBeGreaterThan(0);
    // Read again: once its bucket refills, what it sends is taken.
    await eventually(async () => {
      await flooder.publish('state', { battery: 42 });
      await server.s.app.devices.telemetry.flush();
      expect(await server.battery(flooder.name)).toBe(42);
    }, 10_000);
    await flooder.close();
  });
});
