import type { DfuEvent, ReplyMessage } from '@fleet/shared/protocol';
import type { BulkCommandAnswer } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { ChunkSizer } from '../../lib/batching/chunk-sizer.ts';
import { CoalescingQueue } from '../../lib/batching/coalescing-queue.ts';
import type { LoopProbe } from '../../lib/batching/flush-loop.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { DeviceLink } from '../device-link.ts';
import type { CommandContext } from './command-context.ts';
import type { SendOptions, Target } from './command-rows.ts';
import { deliverHeld, type Awake } from './deliver-held.ts';
import { entityCommandProgress, startEntityCommand } from './entity-command.ts';
import { insertSends, type OneSend } from './insert-sends.ts';
import { ProgressBatcher } from './progress-batcher.ts';
import type { ReplyWaiters } from './reply-waiters.ts';
import { sendToDevice } from './send-to-device.ts';
import { sendToDevices, sendToEntity } from './send-to-devices.ts';
import type { SettleHandler } from './settle-handlers.ts';
import type { CommandOutcome } from './command-context.ts';
import { settleReplies, type DeviceReply } from './settle-reply.ts';
import { startLongCommand } from './start-long-command.ts';
import { startSelectionBatch } from './start-selection-batch.ts';
import { sweepCommands } from './sweep-commands.ts';

interface Options {
  db: Db;
  link: DeviceLink;
  waiters: ReplyWaiters;
  timeoutMs: number;
  /** How long a firmware update may take from publication to the device's final reply. */
  dfuTimeoutMs: number;
  /** What features do when their commands settle (DFU, allocation, state in replies), in this order. */
  settle: readonly SettleHandler[];
  onError(err: unknown, what: string): void;
}

/**
 * Remote commands (ARCHITECTURE.md "Device protocol"), one operation a file in this folder;
 * this object only holds what they share. Every command is a row before it is published; a
 * device that is not connected holds it as `queued` until it wakes or the command expires. The
 * HTTP call waits for the reply up to the timeout; a late reply still settles the row. Given an
 * audit context, a send is recorded with its rows, and every row's outcome when it settles.
 */
export class CommandService {
  private readonly ctx: CommandContext;
  /** Replies gathered while a settling statement runs, settled together by the next. */
  private readonly replies: CoalescingQueue<DeviceReply, boolean>;

  constructor(o: Options) {
    const progress = new ProgressBatcher(o.db, (err) => o.onError(err, 'recording progress'));
    const sends = new CoalescingQueue((items: OneSend[]) => insertSends(o.db, items));
    this.ctx = { ...o, progress, sends, settledListeners: [] };
    // Up to 100 replies a statement, down to 50 when 100 hold the connection past the target: fewer
    // multiplied the rollout engine's steps (bench/notes/rollout-bench.md, s25e).
    const sizer = new ChunkSizer({ initial: 100, min: 50, max: 100 });
    this.replies = new CoalescingQueue((replies: DeviceReply[]) => settleReplies(this.ctx, replies), 100, sizer);
  }

  /** Calls `listener` with the rows that settle (replies, timeouts), after they are written. */
  onSettled(listener: (rows: CommandOutcome[]) => void): void {
    this.ctx.settledListeners.push(listener);
  }

  /** One device: answers when it replied, or at once when the command is held for a sleeping device. */
  toDevice(actor: AccessClaims, entity: string, name: string, req: SendOptions, audit?: AuditContext) {
    return sendToDevice(this.ctx, actor, entity, name, req, audit);
  }

  /** One batch of a command to a selection: written with the selection's id, published without waiting. */
  toSelectionBatch(actor: AccessClaims, id: string, members: { device: string; entity: string }[], req: SendOptions) {
    return startSelectionBatch(this.ctx, actor, id, members, req);
  }

  /** Several devices of one entity: each gets its own command; answers when all replied or the timeout passed. */
  toDevices(
    actor: AccessClaims,
    entity: string,
    names: string[],
    req: SendOptions,
    audit?: AuditContext,
  ): Promise<BulkCommandAnswer> {
    return sendToDevices(this.ctx, actor, entity, names, req, audit);
  }

  /** Every device of the entity, published once on the entity's command topic. */
  toEntity(actor: AccessClaims, entity: string, req: SendOptions, audit?: AuditContext): Promise<BulkCommandAnswer> {
    return sendToEntity(this.ctx, actor, entity, req, audit);
  }

  /** Every device of the entity, answered at once; the replies are followed with `entityProgress`. */
  startToEntity(actor: AccessClaims, entity: string, req: SendOptions, audit?: AuditContext) {
    return startEntityCommand(this.ctx, actor, entity, req, audit);
  }

  /** An entity-wide command's progress: sent to how many devices, how many answered. */
  entityProgress(entity: string, id: string) {
    return entityCommandProgress(this.ctx.db, entity, id);
  }

  /** Long work (a firmware update): published without waiting for replies; answers the rows. */
  start(actor: AccessClaims, entity: string, names: string[], target: Target, req: SendOptions, audit?: AuditContext) {
    return startLongCommand(this.ctx, actor, entity, names, target, req, audit);
  }

  /** A device's progress on long work: the phase and percentage go on its command row (batched). */
  onProgress(device: string, event: DfuEvent): void {
    this.ctx.progress.add(device, event);
  }

  /** A device's reply: settles its row (even after a timeout), with the replies that came meanwhile, and answers whoever waits. */
  onReply(device: string, reply: ReplyMessage): Promise<boolean> {
    return this.replies.add({ device, reply });
  }

  /** Devices that woke: their held commands go out now, each claimed by exactly one instance. */
  deliverHeld(woken: Awake[]): Promise<void> {
    return deliverHeld(this.ctx, woken);
  }

  /** The periodic sweep: expiry, timeouts, and held commands of devices seen online. */
  sweep(): Promise<void> {
    return sweepCommands(this.ctx);
  }

  /** Shutdown, before the broker closes: calls waiting for replies get `ms` more, then answer 503. */
  drain(ms: number): Promise<void> {
    return this.ctx.waiters.drain(ms);
  }

  /** The DFU progress batcher's flush loop, as the metrics see it. */
  get progressLoop(): LoopProbe {
    return this.ctx.progress.loop;
  }

  /** Writes progress still pending; the device side calls it before the database closes. */
  flushProgress(): Promise<void> {
    return this.ctx.progress.flush();
  }
}
