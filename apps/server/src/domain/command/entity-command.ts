import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { COMMAND_LABELS } from '@fleet/shared/command-labels';
import type { CommandType } from '@fleet/shared/protocol';
import type { EntityCommandProgress } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { insertAudited } from './audited-insert.ts';
import type { CommandContext } from './command-context.ts';
import { commandsForEntity, type SendOptions } from './command-rows.ts';
import { publishAndWait } from './publish-and-wait.ts';

type Counts = EntityCommandProgress['data']['counts'];

const plural = (n: number) => `${n} device${n === 1 ? '' : 's'}`;

/** The progress answer from the rows' states: sent to how many, how many answered, what waits. */
export function entityProgress(id: string, type: CommandType, counts: Counts): EntityCommandProgress {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const answered = counts.succeeded + counts.failed;
  const parts = [
    `${answered} answered`,
    counts.failed && `${counts.failed} with an error`,
    counts.sent && `${counts.sent} waiting for a reply`,
    counts.queued && `${counts.queued} held until they connect`,
    counts.timed_out && `${counts.timed_out} did not answer`,
    counts.expired && `${counts.expired} expired asleep`,
  ].filter(Boolean);
  const verb = COMMAND_LABELS[type];
  return {
    status: counts.sent === 0 ? 'done' : 'running',
    userMessage:
      total === 0 ? `${verb}: no devices to send to` : `${verb} sent to ${plural(total)}: ${parts.join(', ')}`,
    data: { id, type, total, counts },
  };
}

/**
 * Every device of the entity, answered at once: the rows are written (held for sleeping
 * devices), the command goes out on the entity's topic and the replies settle the rows in the
 * background; the caller follows them with `entityCommandProgress`.
 */
export async function startEntityCommand(
  ctx: CommandContext,
  actor: AccessClaims,
  entity: string,
  req: SendOptions,
  audit?: AuditContext,
): Promise<EntityCommandProgress> {
  const id = randomUUID();
  const rows = await insertAudited(ctx.db, audit, req, null, commandsForEntity(actor, req, id, entity));
  const counts: Counts = { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 0, expired: 0 };
  for (const r of rows) counts[r.state]++;
  // Refusals (broker down: held; shutdown: held or unanswered) are on the rows already; only
  // something unforeseen is worth a log line.
  publishAndWait(ctx, rows, req.payload, 'entity').catch((err) => {
    if (!(err instanceof HttpError)) ctx.onError(err, 'an entity-wide command');
  });
  return entityProgress(id, req.payload.type, counts);
}

/** An entity-wide command's progress, counted from its rows; 404 for another entity's or an unknown id. */
export async function entityCommandProgress(db: Db, entity: string, id: string): Promise<EntityCommandProgress> {
  const rows = rowsOf<{ type: CommandType; state: keyof Counts; n: string | number }>(
    await db.execute(sql`
      select type, state, count(*) as n from commands
      where id = ${id}::uuid and entity = ${entity} and target = 'entity'
      group by type, state`),
  );
  const first = rows[0];
  if (!first) throw notFound('Command');
  const counts: Counts = { succeeded: 0, failed: 0, timed_out: 0, queued: 0, sent: 0, expired: 0 };
  for (const r of rows) counts[r.state] += Number(r.n);
  return entityProgress(id, first.type, counts);
}
