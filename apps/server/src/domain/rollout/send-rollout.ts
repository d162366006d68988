import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Awake } from '../command/deliver-held.ts';
import { insertColumns } from '../command/command-parts.ts';
import type { Deps } from '../deps.ts';
import { firmwareById } from '../dfu/choose-firmware.ts';
import { payloadFor } from '../dfu/send-firmware-update.ts';
import type { RolloutRow } from './present-rollout.ts';

/**
 * At most this many devices are sent their step in one engine step, so a stage of thousands is
 * written in short transactions that leave room for the API and the devices' replies; a full batch
 * has the engine step again at once. A step is one transaction and holds the embedded database's
 * one connection throughout: at 1,000 its command writes took up to 662 ms under load (docs/rollouts.md
 * "Bench"), which an operator's query waited out.
 */
export const SEND_BATCH = 250;

/** A device whose provisioning session is to start after the commit (a file-set rollout). */
export interface ToProvision {
  rollout: string;
  entity: string;
  device: string;
  attempt: number;
  actor: string;
  base: string;
}

/**
 * A device's jitter as a share of `jitter_s` in [0, 1): drawn from the rollout's id, the device
 * and the attempt (md5), so it is random across devices but the same on every instance and
 * after a restart, and a test knows it in advance.
 */
const jitterShare = sql`(('x' || substr(md5(rd.rollout::text || rd.device || rd.attempt::text), 1, 8))::bit(32)::bigint / 4294967296.0)`;

/**
 * Claims one part of the waiting devices: the next SEND_BATCH of the stages open so far (by stage
 * and position), of which those already on the version are skipped and the rest, up to the room in
 * flight (claimed and not yet sent counts as in flight), claimed with their send time: now plus
 * their jitter. One part a statement, so no step holds the connection for a whole stage (a stage of
 * 5,000 claimed at once was the engine's longest statement: bench/notes/rollout-bench.md, s24c);
 * answers how many it took, and a whole part taken has the engine step again at once.
 */
export async function claim(tx: Tx, row: RolloutRow, now: Date): Promise<number> {
  const current = row.version === null ? sql`false` : sql`coalesce(d.fw_version = ${row.version}, false)`;
  const taken = rowsOf<{ device: string }>(
    await tx.execute(sql`
      with room as (
        select greatest(0, ${row.max_in_flight} - count(*)) as n from rollout_devices
        where rollout = ${row.id} and state = 'in_flight' and not superseded and stage <= ${row.current_stage}),
      part as (
        select rd.device, rd.attempt, rd.stage, rd.position, ${current} as current
        from rollout_devices rd join devices d on d.name = rd.device
        where rd.rollout = ${row.id} and rd.state = 'waiting' and not rd.superseded and rd.stage <= ${row.current_stage}
        order by rd.stage, rd.position limit ${SEND_BATCH}),
      next as (
        select device, attempt, true as current from part where current
        union all (
          select device, attempt, false from part where not current
          order by stage, position limit (select n from room)))
      update rollout_devices rd set
        state = case when next.current then 'skipped' else 'in_flight' end,
        settled_at = case when next.current then now() end,
        claimed_at = case when next.current then null else now() end,
        send_at = case when next.current then null
          else ${now.toISOString()}::timestamptz + make_interval(secs => ${row.jitter_s} * ${jitterShare}) end
      from next where rd.rollout = ${row.id} and rd.device = next.device and rd.attempt = next.attempt
        and rd.state = 'waiting'
      returning rd.device`),
  );
  return taken.length;
}

/** The claimed devices whose send time has come, first by stage and position, at most SEND_BATCH. */
const dueDevices = (row: RolloutRow, now: Date, files: boolean) => sql`
  select rd.device, rd.attempt, d.entity, d.online from rollout_devices rd join devices d on d.name = rd.device
  where rd.rollout = ${row.id} and rd.state = 'in_flight' and not rd.superseded and rd.sent_at is null
    and rd.command_id is null and rd.send_at <= ${now.toISOString()}::timestamptz
    ${files ? sql`and d.online` : sql``}
  order by rd.stage, rd.position limit ${SEND_BATCH}`;

/**
 * Sends the claimed devices whose send time has come. Firmware: in ONE statement their commands
 * are written held (the delivery after the commit, or the command sweep, claims each exactly
 * once) and each row's `sent_at` and `command_id` set with them, so no row is sent without its
 * command; the commands are written once, not inserted and then updated (bench/notes/rollout-bench.md,
 * 2026-11-29 s22e). A file set: `sent_at` marks each online device's session as begun, and the
 * sessions start after the commit; a device offline waits for its next step.
 */
export async function sendDue(
  deps: Deps,
  tx: Tx,
  row: RolloutRow,
  now: Date,
): Promise<{ sent: number; awake: Awake[]; provision: ToProvision[] }> {
  if (row.delivery !== 'files') return sendFirmware(deps, tx, row, now);
  const due = rowsOf<{ device: string; attempt: number }>(
    await tx.execute(sql`
      with next as (${dueDevices(row, now, true)})
      update rollout_devices rd set sent_at = now()
      from next where rd.rollout = ${row.id} and rd.device = next.device and rd.attempt = next.attempt
      returning rd.device, rd.attempt`),
  );
  const provision = due.map((d) => ({
    rollout: row.id,
    entity: row.entity,
    device: d.device,
    attempt: d.attempt,
    actor: row.created_by,
    base: row.download_base,
  }));
  return { sent: due.length, awake: [], provision };
}

/** sendDue of a firmware rollout: the due devices' commands, held, and their rows marked, in one statement. */
async function sendFirmware(deps: Deps, tx: Tx, row: RolloutRow, now: Date) {
  const fw = await firmwareById(tx, row.entity, row.firmware_id ?? '00000000-0000-0000-0000-000000000000');
  const { type, ...args } = payloadFor(deps, fw, row.hold_s, row.download_base);
  // A device no longer of the rollout's entity is marked sent with no command (a step never
  // recorded): it fails by the report timeout and is never sent again.
  const due = rowsOf<{ device: string; entity: string; online: boolean }>(
    await tx.execute(sql`
      with next as (select *, gen_random_uuid() as id from (${dueDevices(row, now, false)}) due),
      written as (
        insert into commands ${insertColumns}
        select id, device, entity, ${type}, ${JSON.stringify(args)}::jsonb, 'devices', 'queued', ${row.created_by},
          null, now() + make_interval(secs => ${row.hold_s})
        from next where entity = ${row.entity}),
      marked as (
        update rollout_devices rd set sent_at = now(),
          command_id = case when next.entity = ${row.entity} then next.id end
        from next where rd.rollout = ${row.id} and rd.device = next.device and rd.attempt = next.attempt
        returning rd.device)
      select next.device, next.entity, next.online from next join marked on marked.device = next.device`),
  );
  const awake = due
    .filter((d) => d.online && d.entity === row.entity)
    .map((d) => ({ name: d.device, entity: d.entity }));
  return { sent: due.length, awake, provision: [] };
}
