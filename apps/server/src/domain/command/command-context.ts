import type { Db } from '../../db/client.ts';
import type { DeviceLink } from '../device-link.ts';
import type { ProgressBatcher } from './progress-batcher.ts';
import type { ReplyWaiters } from './reply-waiters.ts';
import type { SettleHandler } from './settle-handlers.ts';

/** What every command operation is given: built once by `CommandService`. */
export interface CommandContext {
  db: Db;
  link: DeviceLink;
  waiters: ReplyWaiters;
  progress: ProgressBatcher;
  /** How long a call waits for a reply (and a sent command may go unanswered before it times out). */
  timeoutMs: number;
  /** How long a firmware update may take from publication to the device's final reply. */
  dfuTimeoutMs: number;
  /** What features do when their commands settle, in registration order. */
  settle: readonly SettleHandler[];
  onError(err: unknown, what: string): void;
}

/** Why a sent command that got no reply timed out, as its row says it. */
export const timeoutText = (ctx: Pick<CommandContext, 'timeoutMs'>) => `No reply within ${ctx.timeoutMs / 1000} s`;
