import { commandMessage, topics, type DevicePayload } from '@fleet/shared/protocol';
import type { CommandSettled } from '../../lib/bus.ts';
import { HttpError } from '../../lib/http-error.ts';
import { timeoutText, type CommandContext } from './command-context.ts';
import { beforeDeadline } from './command-parts.ts';
import { holdCommands, timeOutCommands } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';
import { SHUT_DOWN } from './reply-waiters.ts';
import { heldOnShutdown, unansweredOnShutdown } from './shutdown-answers.ts';

/**
 * Publishes the sent rows and waits for their replies; answers each row's outcome in order.
 * While the server shuts down: 503 (with a retry hint) for a call the drain let go, and rows
 * not yet published are held, to go out from another instance or after the restart.
 */
export async function publishAndWait(
  ctx: CommandContext,
  rows: CommandRow[],
  payload: DevicePayload,
  via: 'device' | 'entity' = 'device',
): Promise<CommandSettled[]> {
  const live = rows.filter((r) => r.state === 'sent');
  if (ctx.waiters.closed) {
    await holdCommands(ctx.db, live);
    throw heldOnShutdown();
  }
  const deadline = Date.now() + ctx.timeoutMs;
  const replies = live.map((r) => ctx.waiters.wait(r.id, r.device, deadline));
  const message = (row: CommandRow) => commandMessage(row.id, payload, row.expires_at);
  try {
    const published: Promise<unknown> =
      via === 'entity' && live.length > 0
        ? ctx.link.publish(topics.entityCommands(live[0]!.entity), message(live[0]!))
        : Promise.all(live.map((r) => ctx.link.publish(topics.deviceCommands(r.entity, r.device), message(r))));
    // A broker link that is down queues the publication; the caller does not wait past the timeout.
    await beforeDeadline(published, deadline);
  } catch (err) {
    // Not published: hold them, so the sweep delivers them once the broker is back.
    await holdCommands(ctx.db, live);
    ctx.onError(err, 'publishing a command');
    throw new HttpError(
      503,
      'The MQTT broker is unreachable',
      'The command is held and goes out when the broker is back',
    );
  }
  const outcomes = await Promise.all(replies);
  if (outcomes.includes(SHUT_DOWN)) {
    throw unansweredOnShutdown();
  }
  await timeOutCommands(
    ctx,
    live.filter((_, i) => outcomes[i] === null),
    timeoutText(ctx),
  );
  return live.map<CommandSettled>(
    (r, i) =>
      (outcomes[i] as CommandSettled | null) ?? {
        id: r.id,
        device: r.device,
        state: 'timed_out',
        error: timeoutText(ctx),
        replied_at: null,
        latency_ms: null,
      },
  );
}
