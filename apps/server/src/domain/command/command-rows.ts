import { sql, type SQL } from 'drizzle-orm';
import type { DevicePayload } from '@fleet/shared/protocol';
import { DEFAULT_COMMAND_TTL_S } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Db, Executor } from '../../db/client.ts';
import { settlingWithEntries } from '../audit/command-outcomes.ts';
import { anyOf, insertColumns } from './command-parts.ts';
import { tellSettled, type CommandContext, type CommandOutcome } from './command-context.ts';
import type { CommandRow } from './present-command.ts';

export type Target = CommandRow['target'];
export type SendOptions = { payload: DevicePayload; expires_in_s?: number | undefined };

/**
 * The INSERT (without RETURNING) of one command per device the `devices` clause selects (`d` is
 * the devices row; `id` the command id to use), held for devices that are not connected.
 */
export function commandInsert(actor: AccessClaims, target: Target, req: SendOptions, id: SQL, devicesClause: SQL): SQL {
  const { type, ...args } = req.payload;
  const ttl = req.expires_in_s ?? DEFAULT_COMMAND_TTL_S;
  return sql`
      insert into commands ${insertColumns}
      select ${id}, d.name, d.entity, ${type}, ${JSON.stringify(args)}::jsonb, ${target},
        case when d.online then 'sent' else 'queued' end, ${actor.sub},
        case when d.online then now() end, now() + make_interval(secs => ${ttl})
      from devices d where ${devicesClause}`;
}

/** A command row as raw SQL answers it (dates as strings), with its dates as dates. */
export const commandRow = (row: CommandRow): CommandRow => ({
  ...row,
  created_at: new Date(row.created_at),
  expires_at: new Date(row.expires_at),
});

/** The command rows a statement answered (whole `commands` rows, raw SQL: dates as strings). */
export const commandRowsOf = (result: unknown): CommandRow[] => rowsOf<CommandRow>(result).map(commandRow);

/** Writes the commands of `commandInsert` and answers the rows. */
export async function insertCommands(
  db: Executor,
  actor: AccessClaims,
  target: Target,
  req: SendOptions,
  id: SQL,
  devicesClause: SQL,
): Promise<CommandRow[]> {
  return commandRowsOf(await db.execute(sql`${commandInsert(actor, target, req, id, devicesClause)} returning *`));
}

/** The INSERT of one command per named device of the entity, each with its own id. */
export const commandsForDevices = (
  actor: AccessClaims,
  target: Target,
  req: SendOptions,
  entity: string,
  names: string[],
) => commandInsert(actor, target, req, sql`gen_random_uuid()`, sql`d.name = ${anyOf(names)} and d.entity = ${entity}`);

/** The INSERT of one command, id `id`, for every device of the entity (its entity-wide command). */
export const commandsForEntity = (actor: AccessClaims, req: SendOptions, id: string, entity: string) =>
  commandInsert(actor, 'entity', req, sql`${id}::uuid`, sql`d.entity = ${entity}`);

/** Puts sent rows back to held, for the sweep to deliver once the broker is back. */
export async function holdCommands(db: Db, rows: CommandRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    update commands set state = 'queued', sent_at = null
    where state = 'sent' and id::text = ${anyOf(rows.map((r) => r.id))} and device = ${anyOf(rows.map((r) => r.device))}`);
}

/** Sent rows whose call stopped waiting: they time out (a late reply still settles them), each with its entry. */
export async function timeOutCommands(
  ctx: Pick<CommandContext, 'db' | 'settledListeners' | 'onError'>,
  rows: CommandRow[],
  error: string,
): Promise<void> {
  if (rows.length === 0) return;
  const settled = rowsOf<CommandOutcome>(
    await ctx.db.execute(
      settlingWithEntries(
        sql`update commands set state = 'timed_out', error = ${error}
        where state = 'sent' and id::text = ${anyOf(rows.map((r) => r.id))} and device = ${anyOf(rows.map((r) => r.device))}`,
        'system',
      ),
    ),
  );
  tellSettled(ctx, settled);
}
