import { sql, type SQL } from 'drizzle-orm';
import { StateReportSchema, type ReplyMessage } from '@fleet/shared/protocol';
import type { RefreshReport } from '../../lib/bus.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import { settlingWithEntries } from '../audit/command-outcomes.ts';
import { tellSettled, type CommandContext } from './command-context.ts';
import { anyOf } from './command-parts.ts';
import type { CommandRow } from './present-command.ts';
import { handlersFor, replyOutcome, type SettleHandler } from './settle-handlers.ts';

/**
 * The SET list that settles a row from a reply: the reply's own outcome, unless an owner refuses
 * a success (a firmware update that came back on another version), and progress done for long work.
 */
export function settleAssignments(reply: ReplyMessage, handlers: readonly SettleHandler[]): SQL {
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
  return sql`
    state = case when ${refused} then 'failed' else ${state}::text end,
    error = ${errorText},
    progress = ${progress},
    replied_at = now(),
    latency_ms = case when sent_at is null then null
      else round(extract(epoch from clock_timestamp() - sent_at) * 1000) end`;
}

/**
 * A device's reply: settles its row (even after a timeout, once: a second reply finds it settled)
 * with its audit entry in the same statement,
 * runs the owners' settle handlers, and answers whoever waits. False when no row was open.
 */
export async function settleReply(
  ctx: Pick<CommandContext, 'db' | 'progress' | 'waiters' | 'settle' | 'settledListeners' | 'onError'>,
  device: string,
  reply: ReplyMessage,
): Promise<boolean> {
  // Pending progress is written first: a settled row takes no more.
  await ctx.progress.flush();
  const [row] = rowsOf<CommandRow>(
    await ctx.db.execute(
      settlingWithEntries(
        sql`update commands set ${settleAssignments(reply, ctx.settle)}
          where id = ${reply.id} and device = ${device} and state in ('queued', 'sent', 'timed_out')`,
        'device',
      ),
    ),
  );
  if (!row) return false;
  for (const handler of handlersFor(ctx.settle, row.type)) await handler.settled?.({ db: ctx.db, device, row, reply });
  tellSettled(ctx, [row]);
  await ctx.waiters.settle({
    id: row.id,
    device,
    state: row.state as 'succeeded' | 'failed',
    error: row.error,
    replied_at: new Date(row.replied_at!).toISOString(),
    latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
    ...(row.type === 'refresh' && reportOf(reply)),
  });
  return true;
}

/** A refresh reply's state, firmware and battery, when its data reads as a state report. */
function reportOf(reply: ReplyMessage): { report: RefreshReport } | undefined {
  const parsed = StateReportSchema.safeParse(reply.data ?? {});
  if (!parsed.success) return undefined;
  const { state, fw_version, battery, is_charging } = parsed.data;
  return { report: { state, fw_version, battery, is_charging } };
}
