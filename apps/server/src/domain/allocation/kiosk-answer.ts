import type { KioskAnswer } from '@fleet/shared/schemas/allocation';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { DevicePayload } from '@fleet/shared/protocol';
import type { Deps } from '../deps.ts';

/** The kiosk manager's answer and its status: 200 once the device confirmed, 202 while it is held. */
export interface KioskReply {
  code: 200 | 202;
  body: KioskAnswer;
}

/**
 * Sends the device its `allocate` or `return` command and waits for its reply (CommandService):
 * a sleeping device holds it, which answers 202 with the held command's user message. A refusal
 * (502), a silence (504) or an unreachable broker (503) is thrown as the command service says.
 */
export async function tellDevice(
  deps: Deps,
  actor: AccessClaims,
  entity: string,
  device: string,
  payload: DevicePayload,
  data: KioskAnswer['data'],
): Promise<KioskReply> {
  const answer = await deps.devices.commands.toDevice(actor, entity, device, { payload });
  if (answer.status === 'queued') {
    return { code: 202, body: { status: 'queued', userMessage: answer.userMessage, data } };
  }
  return { code: 200, body: { status: 'success', data } };
}
