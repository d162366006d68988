import { describe, expect, it } from 'vitest';
import { aDevice } from '@/lib/device/test-fixtures.ts';
import { planProvisionSelected, provisionSelectedNotice } from './provision-selected.ts';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const recent = new Date(NOW - 60_000).toISOString();
const DEVICES = new Map([
  ['online1', aDevice({ name: 'online1', online: true, updated_at: recent })],
  ['online2', aDevice({ name: 'online2', online: true, updated_at: recent })],
  ['sleepy', aDevice({ name: 'sleepy', online: false, updated_at: recent })],
  // Registered and never heard from: its last sign of life is its registration.
  ['fresh', aDevice({ name: 'fresh', online: false, created_at: recent, updated_at: recent })],
]);
const deviceOf = (name: string) => DEVICES.get(name);
const planned = (devices: string[], unresponsive: string[] = []) => ({
  calls: [{ entity: 'acme', devices }],
  unresponsive,
  unlisted: [],
});

describe('Provision selected (core §2, §4)', () => {
  it('starts sessions only on connected devices and says how many it skipped and why', () => {
    const plan = planProvisionSelected(planned(['online1', 'sleepy', 'fresh', 'online2']), deviceOf, NOW);
    expect(plan.calls).toEqual([{ entity: 'acme', devices: ['online1', 'online2'] }]);
    expect(plan.asleep).toEqual(['sleepy']);
    expect(plan.neverConnected).toEqual(['fresh']);
    expect(provisionSelectedNotice(plan)).toBe(
      'Provisioning started on 2 devices; 2 skipped: 1 asleep, 1 not connected yet — ' +
        'provisioning needs the device connected: start it once the device is online.',
    );
  });

  it('starts nothing when no selected device is connected, and says so', () => {
    const plan = planProvisionSelected(planned(['sleepy', 'fresh'], ['gone']), deviceOf, NOW);
    expect(plan.calls).toEqual([]);
    expect(plan.starting).toBe(0);
    expect(provisionSelectedNotice(plan)).toBe(
      'Provisioning not started: no selected device is connected (3 skipped: 1 asleep, 1 not connected yet, ' +
        '1 unresponsive); provisioning needs the device connected: start it once the device is online.',
    );
  });

  it('says nothing extra when every selected device is connected; tries a device the list has not loaded', () => {
    const plan = planProvisionSelected(planned(['online1', 'unknown']), deviceOf, NOW);
    expect(plan.calls).toEqual([{ entity: 'acme', devices: ['online1', 'unknown'] }]);
    expect(provisionSelectedNotice(plan)).toBeNull();
  });

  it('keeps the unresponsive-only wording', () => {
    const plan = planProvisionSelected(planned([], ['gone']), deviceOf, NOW);
    expect(provisionSelectedNotice(plan)).toBe(
      'Provisioning not started: no selected device is responsive (1 skipped: 1 unresponsive)',
    );
  });
});
