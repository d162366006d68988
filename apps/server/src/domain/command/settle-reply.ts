import { sql, type SQL } from 'drizzle-orm';
import { StateReportSchema, type ReplyMessage } from '@fleet/shared/protocol';
import type { RefreshReport } from '../../lib/bus.ts';
import { recordset, rowsOf } from '../../db/raw-sql.ts';
import { commands } from '../../db/schema.ts';
import { settlingWithEntries } from '../audit/command-outcomes.ts';
import { tellSettled, type CommandContext } from './command-context.ts';
import { anyOf } from './command-parts.ts';
import type { CommandRow } from './present-command.ts';
import { handlersFor, replyOutcome, type SettleHandler } from './settle-handlers.ts';

/** What a reply sets on its row: each expression over the row's own columns (`type`, `payload`, `progress`). */
interface SettleValues {
  state: SQL;
  error: SQL;
  progress: SQL;
}

/**
 * A row's new state, error and progress from a reply: the reply's own outcome, unless an owner
 * refuses a success (a firmware update that came back on another version), and progress done for
 * long work.
 */
function settleValues(reply: ReplyMessage, handlers: readonly SettleHandler[]): SettleValues {
  const { state, error } = replyOutcome(reply);
  const refusals =
    state === 'succeeded'
      ? handlers.flatMap((h) => {
          const refusal = h.refuseSuccess?.(reply);
          return refusal ? h.types.map((type) => ({ type, ...refusal })) : [];
        })
      : [];
  const refused = refusals.length
    ? sql`(case ${sql.join(
        refusals.map((r) => sql`when type = ${r.type} then (${r.when})`),
        sql` `,
      )} else false end)`
    : sql`false`;
  const errorText = refusals.length
    ? sql`case ${sql.join(
        refusals.map((r) => sql`when type = ${r.type} and (${r.when}) then ${r.error}`),
        sql` `,
      )} else ${error}::text end`
    : sql`${error}::text`;
  const completing = handlers.filter((h) => h.completesProgress).flatMap((h) => h.types);
  const progress =
    state === 'succeeded' && completing.length
      ? sql`case when type = ${anyOf(completing)} and not ${refused} then 100 else progress end`
      : sql`progress`;
  return { state: sql`case when ${refused} then 'failed' else ${state}::text end`, error: errorText, progress };
}

/** The SET list of `values`, with the reply's time and the round trip's latency. */
function assignments({ state, error, progress }: SettleValues): SQL {
  return sql`
    state = ${state},
    error = ${error},
    progress = ${progress},
    replied_at = now(),
    latency_ms = case when sent_at is null then null
      else round(extract(epoch from clock_timestamp() - sent_at) * 1000) end`;
}

/** The SET list that settles a row from one reply (settleValues). */
export const settleAssignments = (reply: ReplyMessage, handlers: readonly SettleHandler[]): SQL =>
  assignments(settleValues(reply, handlers));

/** A reply from a device, as a batch of them is settled. */
export interface DeviceReply {
  device: string;
  reply: ReplyMessage;
}

/**
 * The UPDATE that settles the open rows `replies` name (without RETURNING): one reply as it
 * always was; several through a record set of (index, id, device), each row's values chosen by
 * its reply's index.
 */
function settlingUpdate(replies: readonly DeviceReply[], handlers: readonly SettleHandler[]): SQL {
  const open = sql`state in ('queued', 'sent', 'timed_out')`;
  if (replies.length === 1) {
    const { device, reply } = replies[0]!;
    return sql`update commands set ${settleAssignments(reply, handlers)}
      where id = ${reply.id} and device = ${device} and ${open}`;
  }
  const values = replies.map((r) => settleValues(r.reply, handlers));
  const pick = (key: keyof SettleValues) =>
    sql`case v.reply_i ${sql.join(
      values.map((v, i) => sql`when ${i} then ${v[key]}`),
      sql` `,
    )} end`;
  const rows = replies.map((r, i) => ({ reply_i: i, reply_id: r.reply.id, reply_device: r.device }));
  return sql`update commands set ${assignments({ state: pick('state'), error: pick('error'), progress: pick('progress') })}
    from ${recordset(rows, { table: commands, columns: [], extra: { reply_i: 'int', reply_id: 'uuid', reply_device: 'text' } })}
    where id = v.reply_id and device = v.reply_device and ${open}`;
}

/**
 * Devices' replies (gathered while the last settling statement ran: CoalescingQueue): settles their rows in ONE statement, each with its
 * audit entry (a row settles once, even after a timeout: a second reply finds it settled), runs
 * the owners' settle handlers, and answers whoever waits, in the replies' order. Answers, for
 * each reply, whether an open row took it. Of two replies to one command in a batch the first counts.
 */
export async function settleReplies(
  ctx: Pick<CommandContext, 'db' | 'progress' | 'waiters' | 'settle' | 'settledListeners' | 'onError'>,
  replies: readonly DeviceReply[],
): Promise<boolean[]> {
  const keyOf = (device: string, id: string) => `${device}/${id}`;
  const first = new Map<string, number>();
  replies.forEach((r, i) => first.has(keyOf(r.device, r.reply.id)) || first.set(keyOf(r.device, r.reply.id), i));
  const distinct = [...first.values()].map((i) => replies[i]!);
  // Pending progress is written first: a settled row takes no more.
  await ctx.progress.flush();
  const settled = rowsOf<CommandRow & { request_id: string | null }>(
    await ctx.db.execute(settlingWithEntries(settlingUpdate(distinct, ctx.settle), 'device')),
  );
  const byKey = new Map(settled.map((row) => [keyOf(row.device, row.id), row]));
  const found = replies.map(
    (r, i) => first.get(keyOf(r.device, r.reply.id)) === i && byKey.has(keyOf(r.device, r.reply.id)),
  );
  const rows = distinct.flatMap((r) => {
    const row = byKey.get(keyOf(r.device, r.reply.id));
    return row ? [{ row, reply: r.reply }] : [];
  });
  for (const { row, reply } of rows)
    for (const handler of handlersFor(ctx.settle, row.type))
      await handler.settled?.({ db: ctx.db, device: row.device, row, reply });
  for (const handler of ctx.settle) {
    const theirs = rows.filter((r) => handler.types.includes(r.row.type)).map((r) => r.row);
    if (handler.settledAll && theirs.length > 0) await handler.settledAll({ db: ctx.db, rows: theirs });
  }
  tellSettled(
    ctx,
    rows.map((r) => r.row),
  );
  for (const { row, reply } of rows)
    await ctx.waiters.settle({
      id: row.id,
      device: row.device,
      state: row.state as 'succeeded' | 'failed',
      error: row.error,
      replied_at: new Date(row.replied_at!).toISOString(),
      latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
      ...(row.type === 'refresh' && reportOf(reply)),
    });
  return found;
}

/** One device's reply: settleReplies of one. False when no row was open. */
export async function settleReply(
  ctx: Parameters<typeof settleReplies>[0],
  device: string,
  reply: ReplyMessage,
): Promise<boolean> {
  const [found] = await settleReplies(ctx, [{ device, reply }]);
  return found!;
}

/** A refresh reply's state, firmware and battery, when its data reads as a state report. */
function reportOf(reply: ReplyMessage): { report: RefreshReport } | undefined {
  const parsed = StateReportSchema.safeParse(reply.data ?? {});
  if (!parsed.success) return undefined;
  const { state, fw_version, battery, is_charging } = parsed.data;
  return { report: { state, fw_version, battery, is_charging } };
}
