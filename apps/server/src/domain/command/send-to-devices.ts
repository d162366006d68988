import { randomUUID } from 'node:crypto';
import type { DevicePayload } from '@fleet/shared/protocol';
import type { BulkCommandAnswer } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { AuditContext } from '../audit/audit-context.ts';
import { insertAudited } from './audited-insert.ts';
import type { CommandContext } from './command-context.ts';
import { commandsForDevices, commandsForEntity, type SendOptions } from './command-rows.ts';
import type { CommandRow } from './present-command.ts';
import { publishAndWait } from './publish-and-wait.ts';
import { summariseBulk, type Outcome } from './summarise-bulk.ts';

async function settleAll(
  ctx: CommandContext,
  rows: CommandRow[],
  payload: DevicePayload,
  via: 'device' | 'entity',
): Promise<Outcome[]> {
  const settled = await publishAndWait(ctx, rows, payload, via);
  const byKey = new Map(settled.map((s) => [`${s.id}/${s.device}`, s]));
  return rows.map((r) => {
    const s = byKey.get(`${r.id}/${r.device}`);
    // A refresh that succeeded carries the device's reply, as a single refresh answers it.
    const report = s?.state === 'succeeded' ? s.report : undefined;
    return { device: r.device, state: s?.state ?? r.state, error: s?.error ?? null, ...(report && { report }) };
  });
}

/** Several devices of one entity: each gets its own command; answers when all replied or the timeout passed. */
export async function sendToDevices(
  ctx: CommandContext,
  actor: AccessClaims,
  entity: string,
  names: string[],
  req: SendOptions,
  audit?: AuditContext,
): Promise<BulkCommandAnswer> {
  const rows = await insertAudited(ctx.db, audit, req, null, commandsForDevices(actor, 'devices', req, entity, names));
  const found = new Set(rows.map((r) => r.device));
  const missing = names
    .filter((n) => !found.has(n))
    .map((device) => ({ device, state: 'not_found' as const, error: null }));
  const outcome = await settleAll(ctx, rows, req.payload, 'device');
  return summariseBulk(req.payload, outcome, missing);
}

/** Every device of the entity, published once on the entity's command topic. */
export async function sendToEntity(
  ctx: CommandContext,
  actor: AccessClaims,
  entity: string,
  req: SendOptions,
  audit?: AuditContext,
): Promise<BulkCommandAnswer> {
  const id = randomUUID();
  const rows = await insertAudited(ctx.db, audit, req, null, commandsForEntity(actor, req, id, entity));
  const outcome = await settleAll(ctx, rows, req.payload, 'entity');
  return summariseBulk(req.payload, outcome, [], 100);
}
