import {
  CommandMessageSchema,
  AllocatePayloadSchema,
  CommandPayloadSchema,
  DfuPayloadSchema,
  ReturnPayloadSchema,
  type CommandMessage,
  type DfuPayload,
  type ReplyMessage,
} from '@fleet/shared/protocol';
import type { DeviceModel } from './device-model.ts';
import { type Faults, happens } from './faults.ts';
import type { Random } from './random.ts';
import { reportedBattery } from './battery.ts';
import type { SeenIds } from './seen-ids.ts';

/** What a device does with a message on a `cmd` topic; the transport carries it out. */
export type CommandDecision =
  | { action: 'ignore'; reason: 'invalid' | 'duplicate' | 'expired' }
  /** The disconnect fault: the link fails as the command arrives, before any answer. */
  | { action: 'drop-connection'; command: CommandMessage }
  /** The no-reply fault: the command is swallowed. */
  | { action: 'stay-silent'; command: CommandMessage }
  | { action: 'reply'; command: CommandMessage; reply: ReplyMessage; then: Then }
  /** A firmware update: long work, answered when it is done (docs/device-protocol.md). */
  | { action: 'update-firmware'; command: CommandMessage; payload: DfuPayload };

/**
 * What the device does after its reply: nothing, report its state, reboot, or (kiosk manager)
 * become allocated to a visitor / back in a dispenser and report that.
 */
type Then = 'nothing' | 'report' | 'reboot' | 'allocated' | 'returned';

/** What the decision reads of the device; the command's effects on it are left to the transport. */
export interface CommandContext {
  seen: SeenIds;
  model: DeviceModel;
  faults: Faults;
  rng: Random;
}

export const SIMULATED_FAILURE = 'Simulated failure';
export const BATTERY_EMPTY = 'Battery empty';
export const KIOSK_REFUSED = 'Refused by the device';

/**
 * Decides how the device answers one raw `cmd` message at time `now` (epoch ms): malformed,
 * expired and already-seen commands are ignored; the faults come next; then the command itself.
 */
export function decideCommand(raw: Buffer | string, ctx: CommandContext, now: number): CommandDecision {
  const parsed = CommandMessageSchema.safeParse(parseJson(raw.toString()));
  if (!parsed.success) return { action: 'ignore', reason: 'invalid' };
  const command = parsed.data;
  // Remembered before anything else: a redelivery after a failed first attempt is still a repeat.
  if (!ctx.seen.remember(command.id)) return { action: 'ignore', reason: 'duplicate' };
  if (Date.parse(command.expires_at) <= now) return { action: 'ignore', reason: 'expired' };

  if (happens(ctx.rng, ctx.faults.disconnect)) return { action: 'drop-connection', command };
  if (happens(ctx.rng, ctx.faults.noReply)) return { action: 'stay-silent', command };
  if (happens(ctx.rng, ctx.faults.error)) return failed(command, SIMULATED_FAILURE);

  if (command.type === 'dfu') {
    const dfu = DfuPayloadSchema.safeParse({ ...command.payload, type: 'dfu' });
    if (!dfu.success) return failed(command, 'Invalid dfu payload');
    return { action: 'update-firmware', command, payload: dfu.data };
  }
  if (command.type === 'allocate' || command.type === 'return') {
    const schema = command.type === 'allocate' ? AllocatePayloadSchema : ReturnPayloadSchema;
    if (!schema.safeParse({ ...command.payload, type: command.type }).success)
      return failed(command, `Invalid ${command.type} payload`);
    if (happens(ctx.rng, ctx.faults.refuseKiosk)) return failed(command, KIOSK_REFUSED);
    const state = command.type === 'allocate' ? 'ALLOCATED' : 'WAITING';
    return succeeded(command, command.type === 'allocate' ? 'allocated' : 'returned', { state });
  }
  // The message carries the API payload's arguments without its type; put it back to validate.
  const payload = CommandPayloadSchema.safeParse({ ...command.payload, type: command.type });
  if (!payload.success) return failed(command, `Invalid ${command.type} payload`);
  const p = payload.data;
  switch (p.type) {
    case 'refresh':
      return succeeded(command, 'report', ctx.model.refreshData(p.fields));
    case 'vibrate':
      if (reportedBattery(ctx.model.status.battery) === 0) return failed(command, BATTERY_EMPTY);
      return succeeded(command, 'nothing');
    case 'reboot':
      return succeeded(command, 'reboot');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function succeeded(command: CommandMessage, then: Then, data?: Record<string, unknown>): CommandDecision {
  const reply: ReplyMessage = data
    ? { id: command.id, status: 'success', data }
    : { id: command.id, status: 'success' };
  return { action: 'reply', command, reply, then };
}

function failed(command: CommandMessage, error: string): CommandDecision {
  return { action: 'reply', command, reply: { id: command.id, status: 'error', error }, then: 'nothing' };
}
