import type { CommandOutcome } from '../command/command-context.ts';
import type { DeviceOutcome } from './record-outcomes.ts';

/**
 * What a settled command says to the alert rules: a firmware update (`dfu`) that failed or timed
 * out raises `firmware_failed` and one that succeeded ends it; any other command likewise for
 * `command_failed`. An expired command (it never reached the device) says nothing.
 */
export function commandOutcome(row: CommandOutcome): DeviceOutcome[] {
  if (!['succeeded', 'failed', 'timed_out'].includes(row.state)) return [];
  return [
    {
      device: row.device,
      kind: row.type === 'dfu' ? 'firmware_failed' : 'command_failed',
      failed: row.state !== 'succeeded',
      detail: { command: row.type, state: row.state, error: row.error },
    },
  ];
}
