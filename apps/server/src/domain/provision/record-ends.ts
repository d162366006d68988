import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { recordProvisioningEnds } from '../alert/record-outcomes.ts';
import { anyOf } from '../command/command-parts.ts';

/**
 * Who ended the sessions: `device` (its reports finished them: each session's device), or a
 * context (the server's sweep, a failed start, or an account's cancel) with the action it records.
 */
export type EndedBy = 'device' | { ctx: AuditContext; action: 'provision.end' | 'provision.cancel' };

/**
 * Records each of the sessions `ids` that ended in this transaction (its `ended_at` is the
 * transaction's time) as one audit entry, in that transaction: `provision.end` with the result
 * (success, partial, failed, timeout; a failure's reason is the session's error), or an account's
 * `provision.cancel`. Sessions that ended earlier are left alone, so a repeat records nothing.
 * The `provisioning_failed` alert rules hear the same ends (alert/record-outcomes.ts).
 */
export async function recordSessionEnds(tx: Executor, ids: readonly string[], by: EndedBy): Promise<void> {
  if (ids.length === 0) return;
  const actor =
    by === 'device'
      ? sql`'device', s.device, s.device, null::text, null::text, null::text, 'provision.end'`
      : sql`${by.ctx.actor.kind}, ${by.ctx.actor.id}::text, ${by.ctx.actor.name}::text, ${by.ctx.actor.account ?? null}::text,
          ${by.ctx.address}::text, ${by.ctx.userAgent?.slice(0, 512) ?? null}::text, ${by.action}`;
  const cancel = by !== 'device' && by.action === 'provision.cancel';
  await tx.execute(sql`
    insert into audit_entries (entity, actor_kind, actor_id, actor_name, actor_account, address, user_agent, action,
      target_type, target_name, outcome, reason, details)
    select s.entity, ${actor}, 'device', s.device,
      case when ${cancel} or s.result = 'success' then 'success' else 'failure' end,
      case when ${cancel} or s.result = 'success' then null else s.error end,
      jsonb_build_object('session_id', s.id, 'result', s.result, 'status', s.status,
        'total_files', s.total_files, 'completed_files', s.completed_files, 'failed_files', s.failed_files)
    from (
      select p.*, case
          when p.status = 'provision_completed' then 'success'
          when p.status in ('timeout', 'cancelled') then p.status
          when p.completed_files > 0 then 'partial'
          else 'failed' end as result
      from provision_sessions p
      where p.id::text = ${anyOf(ids)} and p.ended_at = now()) s`);
  await recordProvisioningEnds(tx, ids);
}
