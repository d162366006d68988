import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ReplyMessageSchema, commandMessage, type DevicePayload } from '@fleet/shared/protocol';
import { BATTERY_EMPTY, KIOSK_REFUSED, SIMULATED_FAILURE, decideCommand } from './commands.ts';
import { DeviceModel } from './device-model.ts';
import { type FaultSettings, NO_FAULTS, applyFaults } from './faults.ts';
import { seededRandom } from './random.ts';
import { SeenIds } from './seen-ids.ts';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const LATER = new Date(NOW + 60_000);

function device(opts: { battery?: number; faults?: FaultSettings } = {}) {
  const rng = seededRandom(1);
  return {
    seen: new SeenIds(),
    model: new DeviceModel({ state: 'WAITING', fwVersion: '1.5.0', battery: opts.battery ?? 64 }, rng),
    faults: applyFaults(NO_FAULTS, opts.faults ?? {}),
    rng,
  };
}
const message = (payload: DevicePayload, id = randomUUID(), expires = LATER) =>
  JSON.stringify(commandMessage(id, payload, expires));

describe('command decisions', () => {
  it('answers a refresh with the requested fields, then reports its state', () => {
    const d = decideCommand(message({ type: 'refresh', fields: ['battery', 'state'] }), device(), NOW);
    expect(d).toMatchObject({
      action: 'reply',
      then: 'report',
      reply: { status: 'success', data: { battery: 64, is_charging: false, state: 'WAITING' } },
    });
    if (d.action === 'reply') expect(ReplyMessageSchema.safeParse(d.reply).success).toBe(true);
  });

  it('refreshes every field when the payload names none', () => {
    const raw = JSON.stringify({ id: randomUUID(), type: 'refresh', payload: {}, expires_at: LATER.toISOString() });
    const d = decideCommand(raw, device(), NOW);
    expect(d).toMatchObject({
      action: 'reply',
      reply: { data: { state: 'WAITING', fw_version: '1.5.0', battery: 64 } },
    });
  });

  it('vibrates, unless the battery is empty', () => {
    const song = { type: 'vibrate', song: 'V10' } as const;
    expect(decideCommand(message(song), device(), NOW)).toMatchObject({
      action: 'reply',
      then: 'nothing',
      reply: { status: 'success' },
    });
    expect(decideCommand(message(song), device({ battery: 0 }), NOW)).toMatchObject({
      reply: { status: 'error', error: BATTERY_EMPTY },
    });
  });

  it('answers a command with bad arguments with an error', () => {
    const raw = JSON.stringify({ id: randomUUID(), type: 'vibrate', payload: { song: 'loud' }, expires_at: LATER });
    expect(decideCommand(raw, device(), NOW)).toMatchObject({
      reply: { status: 'error', error: 'Invalid vibrate payload' },
    });
  });

  it('answers a reboot, then reboots', () => {
    expect(decideCommand(message({ type: 'reboot' }), device(), NOW)).toMatchObject({
      action: 'reply',
      then: 'reboot',
      reply: { status: 'success' },
    });
  });

  it('acts on a command id once', () => {
    const d = device();
    const raw = message({ type: 'reboot' });
    expect(decideCommand(raw, d, NOW).action).toBe('reply');
    expect(decideCommand(raw, d, NOW)).toEqual({ action: 'ignore', reason: 'duplicate' });
  });

  it('ignores malformed and expired commands', () => {
    expect(decideCommand('not json', device(), NOW)).toEqual({ action: 'ignore', reason: 'invalid' });
    expect(decideCommand('{"id":"x","type":"reboot"}', device(), NOW)).toEqual({ action: 'ignore', reason: 'invalid' });
    const expired = message({ type: 'reboot' }, randomUUID(), new Date(NOW - 1));
    expect(decideCommand(expired, device(), NOW)).toEqual({ action: 'ignore', reason: 'expired' });
  });

  it('misbehaves as its faults say', () => {
    const cmd = () => message({ type: 'vibrate', song: 'V10' });
    expect(decideCommand(cmd(), device({ faults: { noReply: true } }), NOW).action).toBe('stay-silent');
    expect(decideCommand(cmd(), device({ faults: { disconnect: true } }), NOW).action).toBe('drop-connection');
    expect(decideCommand(cmd(), device({ faults: { error: true } }), NOW)).toMatchObject({
      reply: { status: 'error', error: SIMULATED_FAILURE },
    });
  });

  it('misbehaves about as often as a fault probability says', () => {
    const d = device({ faults: { noReply: 0.2 } });
    const silent = Array.from({ length: 2_000 }, () => decideCommand(message({ type: 'reboot' }), d, NOW)).filter(
      (x) => x.action === 'stay-silent',
    ).length;
    expect(silent).toBeGreaterThan(300);
    expect(silent).toBeLessThan(500);
  });
});

describe('allocate and return (the kiosk manager)', () => {
  const allocate = {
    type: 'allocate',
    allocation_id: randomUUID(),
    visitor: 'visitor_1',
    kiosk: 'lobby',
    apps: { guide: { a: 1 } },
    network: null,
  } as const;
  const back = { type: 'return', kiosk: 'lobby', dispenser: 'lobby_a', allocation_id: null } as const;

  it('confirms an allocation and a return, and stays ALLOCATED in between', () => {
    const d = device();
    expect(decideCommand(message(allocate), d, NOW)).toMatchObject({
      action: 'reply',
      then: 'allocated',
      reply: { status: 'success', data: { state: 'ALLOCATED' } },
    });
    d.model.allocate();
    // However long the visitor keeps it, the unit stays allocated until it is returned.
    for (let i = 0; i < 100; i++) d.model.advance(60_000);
    expect(d.model.reportedState).toBe('ALLOCATED');
    expect(decideCommand(message(back), d, NOW)).toMatchObject({ then: 'returned', reply: { status: 'success' } });
    d.model.giveBack();
    expect(d.model.reportedState).toBe('WAITING');
  });

  it('refuses both when told to, and refuses malformed ones', () => {
    const refusing = device({ faults: { refuseKiosk: true } });
    expect(decideCommand(message(allocate), refusing, NOW)).toMatchObject({
      reply: { status: 'error', error: KIOSK_REFUSED },
    });
    expect(decideCommand(message(back), refusing, NOW)).toMatchObject({ reply: { status: 'error' } });
    const raw = JSON.stringify({ id: randomUUID(), type: 'allocate', payload: { visitor: 3 }, expires_at: LATER });
    expect(decideCommand(raw, device(), NOW)).toMatchObject({ reply: { error: 'Invalid allocate payload' } });
  });
});
