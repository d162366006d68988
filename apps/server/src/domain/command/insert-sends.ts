import { sql } from 'drizzle-orm';
import { DEFAULT_COMMAND_TTL_S } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { recordset } from '../../db/raw-sql.ts';
import { auditEntries, commands } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { entryRow } from '../audit/audited.ts';
import { sendEntry } from './audited-insert.ts';
import { insertColumns } from './command-parts.ts';
import { commandRowsOf, type SendOptions } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';

/** A command to one device of `entity`, by a request that records it (`audit`); `id` is the row's. */
export interface OneSend {
  id: string;
  actor: AccessClaims;
  entity: string;
  name: string;
  req: SendOptions;
  audit: AuditContext;
}

/**
 * Sends to one device each (gathered while the last such statement ran: CoalescingQueue), written
 * in ONE statement: each command row, sent to an online device or held for a sleeping one, and
 * its `command.send` entry (sendEntry, completed in SQL with the row's id and state), so each row
 * and its entry commit together or not at all. A device is found only in its send's entity.
 * Answers each send's row, or null when there is no such device there (the caller's 404).
 */
export async function insertSends(db: Db, sends: readonly OneSend[]): Promise<Array<CommandRow | null>> {
  const rows = sends.map(({ id, actor, entity, name, req }) => {
    const { type, ...args } = req.payload;
    const ttl = req.expires_in_s ?? DEFAULT_COMMAND_TTL_S;
    return { id, device: name, entity, type, payload: args, sent_by: actor.sub, ttl };
  });
  const entries = sends.map((s) => ({ ...entryRow(s.audit, sendEntry(s.audit, s.req, s.name)), command_id: s.id }));
  const columns = Object.keys(entryRow(sends[0]!.audit, sendEntry(sends[0]!.audit, sends[0]!.req, ''))) as Array<
    keyof typeof auditEntries.$inferInsert
  >;
  const values = columns.map((c) =>
    c === 'details' ? sql`v.details || jsonb_build_object('command_id', c.id, 'state', c.state)` : sql.raw(`v.${c}`),
  );
  const sent = recordset(rows, {
    table: commands,
    columns: ['id', 'device', 'entity', 'type', 'payload', 'sent_by'],
    extra: { ttl: 'int' },
    as: 's',
  });
  const written = commandRowsOf(
    await db.execute(sql`
      with c as (
        insert into commands ${insertColumns}
        select s.id, d.name, d.entity, s.type, s.payload, 'device', case when d.online then 'sent' else 'queued' end,
          s.sent_by, case when d.online then now() end, now() + make_interval(secs => s.ttl)
        from ${sent} join devices d on d.name = s.device and d.entity = s.entity
        returning *),
      logged as (
        insert into audit_entries (${sql.raw(columns.join(', '))})
        select ${sql.join(values, sql`, `)}
        from c join ${recordset(entries, { table: auditEntries, columns, extra: { command_id: 'uuid' } })}
          on v.command_id = c.id)
      select c.* from c`),
  );
  const byId = new Map(written.map((row) => [row.id, row]));
  return sends.map((s) => byId.get(s.id) ?? null);
}
