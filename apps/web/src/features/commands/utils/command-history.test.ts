import type { Command } from '@fleet/shared/schemas/command';
import { describe, expect, it } from 'vitest';
import { aCommand } from '@/lib/device/test-fixtures.ts';
import { commandOutcome, commandText, formatLatency, joinPages, targetNote } from './command-history.ts';

const command = aCommand;

describe('commandOutcome', () => {
  it('says a command held for a sleeping device waits for it', () => {
    expect(commandOutcome(command({ state: 'queued', sent_at: null, latency_ms: null }))).toEqual({
      label: 'Held — waiting for the device',
      tone: 'yellow',
      detail: null,
    });
  });

  it('labels and colours every state', () => {
    const look = (state: Command['state']) => {
      const { label, tone } = commandOutcome(command({ state }));
      return `${label}/${tone}`;
    };
    expect(look('sent')).toBe('Sent — awaiting reply/blue');
    expect(look('succeeded')).toBe('Succeeded/green');
    expect(look('failed')).toBe('Failed/red');
    expect(look('timed_out')).toBe('Timed out/red');
    expect(look('expired')).toBe('Expired/gray');
  });

  it("shows a failure's error text", () => {
    expect(commandOutcome(command({ state: 'failed', error: 'battery too low' })).detail).toBe('battery too low');
    expect(commandOutcome(command({ state: 'timed_out', error: 'No reply within 10 s' })).detail).toBe(
      'No reply within 10 s',
    );
    expect(commandOutcome(command({ state: 'expired' })).detail).toBe('The device did not wake in time');
    expect(commandOutcome(command({ state: 'succeeded', error: 'ignored' })).detail).toBe(null);
  });
});

describe('history cells', () => {
  it('writes the command with its arguments and how it was addressed', () => {
    expect(commandText(command())).toBe('Vibrate V10');
    expect(commandText(command({ type: 'reboot', payload: {} }))).toBe('Reboot');
    expect(targetNote('device')).toBe(null);
    expect(targetNote('devices')).toBe('to selected devices');
    expect(targetNote('entity')).toBe('to every device');
  });

  it('gives latency in milliseconds, a dash without a reply', () => {
    expect(formatLatency(840)).toBe('840 ms');
    expect(formatLatency(12_345.4)).toBe('12,345 ms');
    expect(formatLatency(null)).toBe('—');
  });

  it('joins pages newest first, each command once', () => {
    const a = command({ id: 'a' });
    const b = command({ id: 'b' });
    const c = command({ id: 'c' });
    expect(joinPages([{ data: [a, b] }, { data: [b, c] }]).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });
});
