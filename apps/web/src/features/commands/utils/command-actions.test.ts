import { CommandPayloadSchema, SONG_ALL_DEVICES, SONG_ONE_DEVICE } from '@fleet/shared/protocol';
import { BulkCommandRequestSchema, CommandRequestSchema } from '@fleet/shared/schemas/command';
import { describe, expect, it } from 'vitest';
import { COMMAND_ACTIONS, commandPayload, describeCommand, needsConfirmation } from './command-actions.ts';

describe('commandPayload', () => {
  it('builds the payload of each action (core §7)', () => {
    expect(commandPayload('refresh')).toEqual({ type: 'refresh' });
    expect(commandPayload('vibrate')).toEqual({ type: 'vibrate', song: 'V10' });
    expect(commandPayload('reboot')).toEqual({ type: 'reboot' });
  });

  it('vibrates V10 on chosen devices and V101 on the entity-wide call', () => {
    expect(SONG_ONE_DEVICE).toBe('V10');
    expect(SONG_ALL_DEVICES).toBe('V101');
    expect(commandPayload('vibrate', 'device')).toEqual({ type: 'vibrate', song: 'V10' });
    expect(commandPayload('vibrate', 'entity')).toEqual({ type: 'vibrate', song: 'V101' });
    expect(commandPayload('refresh', 'entity')).toEqual({ type: 'refresh' });
  });

  it('is accepted by the contract, refresh asking for state, firmware version and battery', () => {
    for (const action of COMMAND_ACTIONS) {
      expect(CommandRequestSchema.safeParse({ payload: commandPayload(action) }).success).toBe(true);
      const bulk = { devices: ['240ac40a2e48'], payload: commandPayload(action) };
      expect(BulkCommandRequestSchema.safeParse(bulk).success).toBe(true);
    }
    expect(CommandPayloadSchema.parse(commandPayload('refresh'))).toEqual({
      type: 'refresh',
      fields: ['state', 'fw_version', 'battery'],
    });
  });
});

describe('needsConfirmation', () => {
  it('asks before a reboot only', () => {
    expect(COMMAND_ACTIONS.filter(needsConfirmation)).toEqual(['reboot']);
  });
});

describe('describeCommand', () => {
  it('names the command with its arguments', () => {
    expect(describeCommand('vibrate', { song: 'V10' })).toBe('Vibrate V10');
    expect(describeCommand('vibrate', { type: 'vibrate', song: 'V101' })).toBe('Vibrate V101');
    expect(describeCommand('reboot', {})).toBe('Reboot');
    expect(describeCommand('refresh', { fields: ['state', 'fw_version', 'battery'] })).toBe('Refresh');
    expect(describeCommand('refresh', { fields: ['battery'] })).toBe('Refresh battery');
    expect(describeCommand('refresh', {})).toBe('Refresh');
  });
});
