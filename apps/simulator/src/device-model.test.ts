import { describe, expect, it } from 'vitest';
import { StateReportSchema } from '@fleet/shared/protocol';
import { DeviceModel, type DeviceStatus } from './device-model.ts';
import { seededRandom } from './random.ts';

const MINUTE = 60_000;
const model = (status: Partial<DeviceStatus> = {}, seed = 1) =>
  new DeviceModel({ state: 'WAITING', fwVersion: '1.5.1', battery: 80, ...status }, seededRandom(seed));

describe('device model', () => {
  it('reports a full state report the protocol accepts', () => {
    const report = model({ battery: 42.4 }).report(1_700_000_000_000);
    expect(StateReportSchema.parse(report)).toEqual({
      state: 'WAITING',
      fw_version: '1.5.1',
      battery: 42,
      is_charging: false,
      online: true,
      ts: 1_700_000_000_000,
    });
  });

  it('charges in its dock, then leaves it when full', () => {
    const m = model({ state: 'charging', battery: 50 });
    expect(m.report(0).is_charging).toBe(true);
    m.advance(10 * MINUTE);
    expect(m.status.battery).toBeGreaterThan(50);
    m.status.battery = 100;
    m.advance(1);
    expect(m.status.state).toBe('WAITING');
  });

  it('is unavailable when the battery is empty', () => {
    const m = model({ state: 'ALLOCATED', battery: 0.01 });
    m.advance(MINUTE);
    expect(m.status.battery).toBe(0);
    expect(m.status.state).toBe('UNAVAILABLE');
    expect(m.report(0).state).toBe('UNAVAILABLE');
  });

  it('reports the spec vocabulary: a docked unit is WAITING and charging', () => {
    const report = model({ state: 'charging', battery: 40 }).report(0);
    expect(report).toMatchObject({ state: 'WAITING', is_charging: true });
  });

  it('changes state now and then over a simulated day, the same way for the same seed', () => {
    const run = (seed: number) => {
      const m = model({}, seed);
      const states: string[] = [];
      for (let i = 0; i < 24 * 60; i++) {
        m.advance(MINUTE);
        states.push(m.status.state);
      }
      return states;
    };
    const day = run(3);
    for (const state of ['WAITING', 'ALLOCATED', 'charging', 'ERROR']) expect(day).toContain(state);
    expect(run(3)).toEqual(day);
  });

  it('sleeps only when idle', () => {
    expect(model({ state: 'charging' }).wantsToSleep(24 * 60 * MINUTE)).toBe(false);
    expect(model({ state: 'WAITING' }).wantsToSleep(24 * 60 * MINUTE)).toBe(true);
  });

  it('boots on reboot, clearing an error, then waits', () => {
    const m = model({ state: 'ERROR' });
    m.rebooted();
    expect(m.status.state).toBe('BOOTING');
    m.advance(10 * MINUTE);
    expect(m.status.state).not.toBe('ERROR');
  });

  it('answers a refresh with the requested fields; the battery brings its charging flag', () => {
    const m = model({ state: 'charging', battery: 33 });
    expect(m.refreshData(['fw_version'])).toEqual({ fw_version: '1.5.1' });
    expect(m.refreshData(['state', 'battery'])).toEqual({ state: 'WAITING', battery: 33, is_charging: true });
  });
});
