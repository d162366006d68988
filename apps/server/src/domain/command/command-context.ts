import type { Db } from '../../db/client.ts';
import type { CoalescingQueue } from '../../lib/batching/coalescing-queue.ts';
import type { DeviceLink } from '../device-link.ts';
import type { OneSend } from './insert-sends.ts';
import type { CommandRow } from './present-command.ts';
import type { ProgressBatcher } from './progress-batcher.ts';
import type { ReplyWaiters } from './reply-waiters.ts';
import type { SettleHandler } from './settle-handlers.ts';

/** A command row that settled, as listeners are told it. */
export interface CommandOutcome {
  id: string;
  device: string;
  entity: string;
  type: string;
  state: string;
  error: string | null;
  /** The request that sent it to its one device (command-outcomes.ts); null when none is known. */
  request_id?: string | null;
}

/** Tells the listeners the rows that settled; a listener's error never fails the settling. */
export function tellSettled(ctx: Pick<CommandContext, 'settledListeners' | 'onError'>, rows: CommandOutcome[]): void {
  if (rows.length === 0) return;
  const told = rows.map(({ id, device, entity, type, state, error, request_id }) => ({
    id,
    device,
    entity,
    type,
    state,
    error,
    request_id: request_id ?? null,
  }));
  for (const listener of ctx.settledListeners) {
    try {
      listener(told);
    } catch (err) {
      ctx.onError(err, 'telling settled commands');
    }
  }
}

/** What every command operation is given: built once by `CommandService`. */
export interface CommandContext {
  db: Db;
  link: DeviceLink;
  waiters: ReplyWaiters;
  progress: ProgressBatcher;
  /** Recorded sends to one device, gathered while the last one's statement runs (insertSends): the row, or null (no such device). */
  sends: CoalescingQueue<OneSend, CommandRow | null>;
  /** How long a call waits for a reply (and a sent command may go unanswered before it times out). */
  timeoutMs: number;
  /** How long a firmware update may take from publication to the device's final reply. */
  dfuTimeoutMs: number;
  /** What features do when their commands settle, in registration order. */
  settle: readonly SettleHandler[];
  /** Told the rows that settled (a reply, a timeout), after they are written (alerts follow them). */
  settledListeners: Array<(rows: CommandOutcome[]) => void>;
  onError(err: unknown, what: string): void;
}

/** Why a sent command that got no reply timed out, as its row says it. */
export const timeoutText = (ctx: Pick<CommandContext, 'timeoutMs'>) => `No reply within ${ctx.timeoutMs / 1000} s`;
