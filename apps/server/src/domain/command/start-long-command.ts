import { commandMessage, topics, type DevicePayload } from '@fleet/shared/protocol';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { AuditContext } from '../audit/audit-context.ts';
import { insertAudited } from './audited-insert.ts';
import type { CommandContext } from './command-context.ts';
import { beforeDeadline } from './command-parts.ts';
import { holdCommands, commandsForDevices, type SendOptions, type Target } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';

/**
 * Long work (a firmware update) to the named devices: written like any command, published to
 * those online without waiting for replies (held for the others), and answered as rows. The
 * device's final reply settles each row later, or the sweep times it out.
 */
export async function startLongCommand(
  ctx: CommandContext,
  actor: AccessClaims,
  entity: string,
  names: string[],
  target: Target,
  req: SendOptions,
  audit?: AuditContext,
): Promise<CommandRow[]> {
  const one = target === 'device' && names.length === 1 ? names[0]! : null;
  const rows = await insertAudited(ctx.db, audit, req, one, commandsForDevices(actor, target, req, entity, names));
  return publishWithoutWaiting(ctx, rows, req.payload);
}

/**
 * Publishes the sent rows without waiting for replies (the device's reply settles each row later,
 * or the sweep times it out); a broker that does not take them in time holds them all.
 */
export async function publishWithoutWaiting(
  ctx: CommandContext,
  rows: CommandRow[],
  payload: DevicePayload,
): Promise<CommandRow[]> {
  const live = rows.filter((r) => r.state === 'sent');
  const published = Promise.all(
    live.map((r) =>
      ctx.link.publish(topics.deviceCommands(r.entity, r.device), commandMessage(r.id, payload, r.expires_at)),
    ),
  );
  try {
    await beforeDeadline(published, Date.now() + ctx.timeoutMs);
  } catch (err) {
    await holdCommands(ctx.db, live);
    ctx.onError(err, 'publishing a command');
    return rows.map((r) => ({ ...r, state: 'queued' as const, sent_at: null }));
  }
  return rows;
}
