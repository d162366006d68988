import type { SQL } from 'drizzle-orm';
import type { CommandType, ReplyMessage } from '@fleet/shared/protocol';
import type { Db } from '../../db/client.ts';
import type { CommandRow } from './present-command.ts';

/** A command row as the settling statement answers it (raw SQL: dates as strings). */
export interface Settled {
  db: Db;
  device: string;
  row: CommandRow;
  reply: ReplyMessage;
}

/**
 * What a feature does when one of its commands settles (a device replied). Features register
 * theirs once, where the commands are built, so `command/` knows no feature: DFU and allocation
 * each export one. Handlers run in the order registered, after the row is settled and before the
 * waiting call is answered.
 */
export interface SettleHandler {
  /** The command types this handler follows. */
  types: readonly CommandType[];
  /**
   * A success reply the owner still refuses, judged in the statement that settles the row: the
   * condition over the row (`payload`, …) and the error it then gets.
   */
  refuseSuccess?(reply: ReplyMessage): { when: SQL; error: SQL };
  /** Long work: a success (not refused) sets progress to 100. */
  completesProgress?: boolean;
  /** After the row is settled. */
  settled?(s: Settled): Promise<void> | void;
  /**
   * After a batch of replies is settled, once for all of its rows of these types (one statement
   * instead of one a row, while a wave of thousands of replies waits for the connection).
   */
  settledAll?(s: { db: Db; rows: readonly CommandRow[] }): Promise<void>;
}

/** The handlers of one command type, in registration order. */
export const handlersFor = (handlers: readonly SettleHandler[], type: CommandType) =>
  handlers.filter((h) => h.types.includes(type));

/** What a reply says before any owner judges it: the state the row goes to and its error. */
export function replyOutcome(reply: ReplyMessage): { state: 'succeeded' | 'failed'; error: string | null } {
  if (reply.status === 'success') return { state: 'succeeded', error: null };
  return { state: 'failed', error: reply.error ?? 'The device reported an error' };
}
