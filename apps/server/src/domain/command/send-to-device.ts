import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { recordFailure } from '../audit/audited.ts';
import { insertAudited, sendEntry } from './audited-insert.ts';
import type { CommandContext } from './command-context.ts';
import { waitFor } from './command-parts.ts';
import { commandInsert, type SendOptions } from './command-rows.ts';
import { heldPrefix } from './held-text.ts';
import type { OneSend } from './insert-sends.ts';
import { presentCommand, type CommandRow } from './present-command.ts';
import { publishAndWait } from './publish-and-wait.ts';

/**
 * One device: answers when it replied, or at once when the command is held for a sleeping device.
 * With `audit`, the send is recorded with the row (insertAudited); its outcome when it settles.
 */
export async function sendToDevice(
  ctx: CommandContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  req: SendOptions,
  audit?: AuditContext,
) {
  const id = randomUUID();
  const rows =
    audit && !audit.unaudited
      ? await recordedSend(ctx, { id, actor, entity, name, req, audit })
      : await insertAudited(
          ctx.db,
          audit,
          req,
          name,
          commandInsert(actor, 'device', req, sql`${id}::uuid`, sql`d.name = ${name} and d.entity = ${entity}`),
        );
  const row = rows[0]!;
  if (row.state === 'queued') {
    const { prefix, when } = await heldPrefix(ctx.db, entity, name);
    return {
      status: 'queued' as const,
      userMessage: `${prefix}: the command waits until ${when} (for up to ${waitFor(row)})`,
      data: presentCommand(row),
    };
  }
  const [settled] = await publishAndWait(ctx, rows, req.payload);
  const done = { ...row, ...settled!, replied_at: settled!.replied_at ? new Date(settled!.replied_at) : null };
  if (done.state === 'succeeded')
    return {
      status: 'success' as const,
      data: presentCommand(done),
      ...(settled!.report && { report: settled!.report }),
    };
  const verb = COMMAND_LABELS[row.type];
  if (done.state === 'failed')
    throw new HttpError(502, `${verb} failed on device ${name}`, done.error ?? 'Device error');
  throw new HttpError(
    504,
    `Device ${name} did not answer in time`,
    `No reply within ${ctx.timeoutMs / 1000} s; a late reply still updates the command history`,
  );
}

/**
 * The row and its entry, written with the other sends that came meanwhile (insertSends). No such
 * device in the entity: nothing written, the attempt recorded as a failure, 404.
 */
async function recordedSend(ctx: CommandContext, send: OneSend): Promise<CommandRow[]> {
  const row = await ctx.sends.add(send);
  if (!row) {
    const err = notFound('Device');
    const { details: _d, ...refused } = sendEntry(send.audit, send.req, send.name);
    await recordFailure(ctx.db, send.audit, refused, err);
    throw err;
  }
  send.audit.recorded = true;
  return [row];
}
