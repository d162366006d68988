import type { Db, Executor } from '../../db/client.ts';
import { notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { SendOptions } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';

/** What is sent, as an entry keeps it: the command and its arguments, a firmware update by version only (its link is signed). */
function sent(req: SendOptions): Record<string, unknown> {
  const { type, ...args } = req.payload;
  if (req.payload.type === 'dfu') return { command: type, version: req.payload.version };
  return { command: type, ...(Object.keys(args).length > 0 && { args }) };
}

/**
 * Writes command rows with `insert` and, when `audit` is given, the send's entry in the same
 * transaction (docs/decisions/2026-11-26-command-outcomes-audited.md): `command.send`
 * (`firmware.send` for a firmware update), success meaning accepted (sent or held). `one` names
 * the single device of a send to one device: the entry names it, and its absence is refused 404
 * (recorded as a failure). Without `one`, one entry for all devices with the count and the names.
 */
export async function insertAudited(
  db: Db,
  audit: AuditContext | undefined,
  req: SendOptions,
  one: string | null,
  insert: (db: Executor) => Promise<CommandRow[]>,
): Promise<CommandRow[]> {
  const check = (rows: CommandRow[]) => {
    if (one !== null && rows.length === 0) throw notFound('Device');
    return rows;
  };
  if (!audit) return check(await insert(db));
  // The request's id follows the command into its settled entry (command-outcomes.ts) and log line.
  const what = { ...sent(req), ...(audit.requestId && { request_id: audit.requestId }) };
  return audited(
    db,
    audit,
    {
      action: req.payload.type === 'dfu' ? 'firmware.send' : 'command.send',
      target: one !== null ? { type: 'device', name: one } : { type: 'command', name: req.payload.type },
      complete: (rows) => {
        if (one !== null) {
          const row = rows[0]!;
          return { details: { phase: 'sent', ...what, command_id: row.id, state: row.state } };
        }
        const held = rows.filter((r) => r.state === 'queued').length;
        return { details: { phase: 'sent', ...what, count: rows.length, held, names: rows.map((r) => r.device) } };
      },
    },
    async (tx) => check(await insert(tx)),
  );
}
