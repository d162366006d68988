import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { RolloutRow } from './present-rollout.ts';

/** A device comes online this many times within REBOOT_LOOP_WITHIN_S after its update: reboot-looping. */
export const REBOOT_LOOP_ONLINE_COUNT = 3;
export const REBOOT_LOOP_WITHIN_S = 300;

/**
 * The start of a soak no report can be told from the update's own (last-seen has a 5 s
 * resolution, and the update's reply may be written just after the soak began).
 */
export const SOAK_GRACE_S = 5;

export type Settled = { stage: number; state: string };
/** A command that settled (its \`commands.settled\` event): the device whose step it may end. */
export type Named = { id: string; device: string };

const iso = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * A device sent the update that now reports its version has it, though its reply was lost (it
 * reached an instance killed before writing it): it was not on that version when claimed.
 */
const onVersionOf = (row: RolloutRow) =>
  row.version === null
    ? sql`false`
    : sql`exists (select 1 from devices d where d.name = rd.device and d.fw_version = ${row.version})`;

/**
 * Devices in flight whose step ended: a firmware command succeeded (or the device, its reply lost,
 * reports the version), or failed with its error; a
 * provisioning session completed (with no file failed), or failed, was cancelled or timed out.
 * The report timeout: a device sent its step and not answered after it counts as failed; a file
 * set's device not online to start its session within `hold_s` of its claim too.
 *
 * `named` (a firmware rollout's step after replies): only the devices of those commands, found by
 * key, and none by the clock; null settles every device in flight (the engine's timer does, every
 * ROLLOUT_TICK_MS). With thousands in flight the whole scan took most of a step's time, and a step
 * ran after every reply batch (bench/notes/rollout-bench.md, 2026-11-29).
 */
export async function settle(tx: Tx, row: RolloutRow, now: Date, named: Named[] | null = null): Promise<Settled[]> {
  if (named !== null && row.delivery !== 'files') return named.length ? settleNamed(tx, row, named) : [];
  const timeout = `No report within ${row.report_timeout_s} s`;
  const late = sql`${iso(now)} - make_interval(secs => ${row.report_timeout_s})`;
  const onVersion = onVersionOf(row);
  const ended =
    row.delivery === 'files'
      ? sql`
      update rollout_devices rd set settled_at = now(),
        state = case when ps.status = 'provision_completed' and ps.error is null then 'succeeded' else 'failed' end,
        error = case when ps.status = 'provision_completed' and ps.error is null then null
          when ps.ended_at is null then ${timeout} else coalesce(ps.error, ps.status) end
      from provision_sessions ps
      where rd.rollout = ${row.id} and rd.state = 'in_flight' and not rd.superseded
        and ps.id = rd.command_id and ps.device = rd.device
        and (ps.ended_at is not null or rd.sent_at < ${late})
      returning rd.stage, rd.state`
      : sql`
      update rollout_devices rd set settled_at = now(),
        state = case when c.state = 'succeeded' or ${onVersion} then 'succeeded' else 'failed' end,
        error = case when c.state = 'succeeded' or ${onVersion} then null
          when c.state = 'sent' then ${timeout}
          else coalesce(c.error, c.state) end
      from commands c
      where rd.rollout = ${row.id} and rd.state = 'in_flight' and not rd.superseded
        and c.id = rd.command_id and c.device = rd.device
        and (c.state in ('succeeded', 'failed', 'timed_out', 'expired')
          or (c.state = 'sent' and (c.sent_at < ${late} or ${onVersion})))
      returning rd.stage, rd.state`;
  // A step begun and never recorded (a crash between the two): it is never sent again.
  const lost = sql`
    update rollout_devices set settled_at = now(), state = 'failed', error = ${timeout}
    where rollout = ${row.id} and state = 'in_flight' and not superseded and command_id is null
      and sent_at < ${late}
    returning stage, state`;
  const asleep = sql`
    update rollout_devices set settled_at = now(), state = 'failed',
      error = ${`Not online within ${row.hold_s} s`}
    where rollout = ${row.id} and state = 'in_flight' and not superseded and sent_at is null
      and ${row.delivery === 'files'} and claimed_at < ${iso(now)} - make_interval(secs => ${row.hold_s})
    returning stage, state`;
  return [
    ...rowsOf<Settled>(await tx.execute(ended)),
    ...rowsOf<Settled>(await tx.execute(lost)),
    ...rowsOf<Settled>(await tx.execute(asleep)),
  ];
}

/** `settle` of the devices of `named` commands only: those that ended (the timer's step sends the late). */
async function settleNamed(tx: Tx, row: RolloutRow, named: Named[]): Promise<Settled[]> {
  const onVersion = onVersionOf(row);
  return rowsOf<Settled>(
    await tx.execute(sql`
      update rollout_devices rd set settled_at = now(),
        state = case when c.state = 'succeeded' or ${onVersion} then 'succeeded' else 'failed' end,
        error = case when c.state = 'succeeded' or ${onVersion} then null else coalesce(c.error, c.state) end
      from jsonb_to_recordset(${JSON.stringify(named)}::jsonb) as n(id uuid, device text), commands c
      where rd.rollout = ${row.id} and rd.device = n.device and rd.command_id = n.id
        and rd.state = 'in_flight' and not rd.superseded
        and c.id = n.id and c.device = n.device and c.state in ('succeeded', 'failed', 'timed_out', 'expired')
      returning rd.stage, rd.state`),
  );
}

/**
 * The soak of the current stage (docs/rollouts.md "Soak"): while it runs, an updated device of
 * the stage that came online REBOOT_LOOP_ONLINE_COUNT times within REBOOT_LOOP_WITHIN_S since its
 * update is reboot-looping; when it ends, one not heard from since it began (after its first
 * SOAK_GRACE_S seconds) is unresponsive.
 * Either counts as failed, with the reason.
 */
export async function soakFailures(tx: Tx, row: RolloutRow, now: Date): Promise<Settled[]> {
  if (row.soak_until === null || row.soak_s === 0) return [];
  const looping = rowsOf<Settled>(
    await tx.execute(sql`
      update rollout_devices rd set state = 'failed', settled_at = now(),
        error = ${`Reboot loop: came online ${REBOOT_LOOP_ONLINE_COUNT} times within ${REBOOT_LOOP_WITHIN_S} s after its update`}
      where rd.rollout = ${row.id} and rd.state = 'succeeded' and not rd.superseded and rd.stage = ${row.current_stage}
        and (select count(*) from device_telemetry t
          where t.entity = ${row.entity} and t.device = rd.device and t.kind = 'online'
            and t.at > rd.settled_at and t.at > now() - make_interval(secs => ${REBOOT_LOOP_WITHIN_S})
        ) >= ${REBOOT_LOOP_ONLINE_COUNT}
      returning rd.stage, rd.state`),
  );
  if (now < row.soak_until) return looping;
  const grace = Math.min(SOAK_GRACE_S, row.soak_s / 2);
  const began = new Date(row.soak_until.getTime() - (row.soak_s - grace) * 1000);
  const silent = rowsOf<Settled>(
    await tx.execute(sql`
      update rollout_devices rd set state = 'failed', settled_at = now(),
        error = ${`No report during the soak of ${row.soak_s} s`}
      from devices d
      where rd.rollout = ${row.id} and rd.state = 'succeeded' and not rd.superseded and rd.stage = ${row.current_stage}
        and d.name = rd.device and d.updated_at < ${iso(began)}
      returning rd.stage, rd.state`),
  );
  return [...looping, ...silent];
}
