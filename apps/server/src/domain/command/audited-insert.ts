import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited, type AuditEntryInput } from '../audit/audited.ts';
import { auditedReturning } from '../audit/audited-returning.ts';
import { commandRow, commandRowsOf, type SendOptions } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';

/** What is sent, as an entry keeps it: the command and its arguments, a firmware update by version only (its link is signed). */
function sent(req: SendOptions): Record<string, unknown> {
  const { type, ...args } = req.payload;
  if (req.payload.type === 'dfu') return { command: type, version: req.payload.version };
  return { command: type, ...(Object.keys(args).length > 0 && { args }) };
}

/** What a send's entries keep: what was sent and, so it follows the command into its settled entry (command-outcomes.ts) and log line, the request's id. */
const sentWhat = (audit: AuditContext, req: SendOptions) => ({
  ...sent(req),
  ...(audit.requestId && { request_id: audit.requestId }),
});
const actionOf = (req: SendOptions) => (req.payload.type === 'dfu' ? 'firmware.send' : 'command.send');

/** The `sent` entry of a send to the one device `name`, to be completed with its row's id and state. */
export const sendEntry = (audit: AuditContext, req: SendOptions, name: string): AuditEntryInput => ({
  action: actionOf(req),
  target: { type: 'device', name },
  details: { phase: 'sent', ...sentWhat(audit, req) },
});

/**
 * Writes the command rows of `insert` (commandInsert: an INSERT without RETURNING) and, when
 * `audit` is given, the send's entry in the same transaction
 * (docs/decisions/2026-11-26-command-outcomes-audited.md): `command.send` (`firmware.send` for a
 * firmware update), success meaning accepted (sent or held). `one` names the single device of a
 * send to one device: the entry names it, and its absence is refused 404 (recorded as a failure).
 * Without `one`, one entry for all devices with the count and the names.
 */
export async function insertAudited(
  db: Db,
  audit: AuditContext | undefined,
  req: SendOptions,
  one: string | null,
  insert: SQL,
): Promise<CommandRow[]> {
  const check = (rows: CommandRow[]) => {
    if (one !== null && rows.length === 0) throw notFound('Device');
    return rows;
  };
  const plain = async (ex: Executor) => check(commandRowsOf(await ex.execute(sql`${insert} returning *`)));
  if (!audit || audit.unaudited) return plain(db);
  if (one !== null) return withEntry(db, audit, insert, sendEntry(audit, req, one));
  const what = sentWhat(audit, req);
  const action = actionOf(req);
  return audited(
    db,
    audit,
    {
      action,
      target: { type: 'command', name: req.payload.type },
      complete: (rows) => {
        const held = rows.filter((r) => r.state === 'queued').length;
        return { details: { phase: 'sent', ...what, count: rows.length, held, names: rows.map((r) => r.device) } };
      },
    },
    plain,
  );
}

/**
 * A send to one device: its row and its entry (`entry`, completed with the row's id and state)
 * in ONE statement (auditedReturning), so they commit together or not at all without a
 * transaction's four round trips (BEGIN, two INSERTs, COMMIT) on the embedded database's one
 * connection. No row (no such device in the entity): 404, recorded as a failure, as `audited` does.
 */
async function withEntry(db: Db, audit: AuditContext, insert: SQL, entry: AuditEntryInput): Promise<CommandRow[]> {
  const rows = await auditedReturning<CommandRow>(db, audit, entry, sql`${insert} returning *`, {
    none: () => notFound('Device'),
    details: sql`v.details || jsonb_build_object('command_id', c.id, 'state', c.state)`,
  });
  return rows.map(commandRow);
}
