import { sql } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { CommandContext } from './command-context.ts';
import { insertCommands, type SendOptions } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';
import { publishWithoutWaiting } from './start-long-command.ts';

/**
 * One batch of a command to a selection ("select all matching"): every row carries the selection's
 * id, so its progress is one count by state; the named devices are taken only within their entity.
 */
export async function startSelectionBatch(
  ctx: CommandContext,
  actor: AccessClaims,
  id: string,
  members: { device: string; entity: string }[],
  req: SendOptions,
): Promise<CommandRow[]> {
  if (members.length === 0) return [];
  const pairs = JSON.stringify(members);
  const rows = await insertCommands(
    ctx.db,
    actor,
    'devices',
    req,
    sql`${id}::uuid`,
    sql`(d.name, d.entity) in (select m.device, m.entity from jsonb_to_recordset(${pairs}::jsonb) as m(device text, entity text))`,
  );
  return publishWithoutWaiting(ctx, rows, req.payload);
}
