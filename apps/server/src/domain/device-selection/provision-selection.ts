import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import type { SelectionProvisionPlan } from '@fleet/shared/schemas/selection-actions';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { ProvisionService } from '../provision/provision-service.ts';
import type { Batches, SelectionRunner } from './selection-runner.ts';
import { auditSelection } from './selection-audit.ts';
import { batchIn, countStandings } from './selection-members.ts';
import { claimSelection, findSelection, presentSelection, type SelectionRow } from './selection-scope.ts';

/** Each member's lot, first rule that holds: gone, unresponsive (20 minutes), offline, start. */
const standing = (now: number): SQL => sql`case
  when d.name is null then 'gone'
  when d.updated_at < ${new Date(now - UNRESPONSIVE_AFTER_MS).toISOString()}::timestamptz then 'unresponsive'
  when not d.online then 'offline'
  else 'start' end`;

async function planFor(db: Db, sel: SelectionRow, now: number): Promise<SelectionProvisionPlan> {
  const lots = await countStandings(db, sel.id, standing(now));
  const n = (lot: string) => lots[lot] ?? 0;
  return {
    total: sel.total,
    start: n('start'),
    offline: n('offline'),
    unresponsive: n('unresponsive'),
    gone: n('gone'),
  };
}

/** The dry run of provisioning a counted selection: how many are connected, how many are not. */
export async function planSelectionProvision(db: Db, scope: Scope, actor: AccessClaims, id: string, now = Date.now()) {
  return planFor(db, await findSelection(db, scope, actor, id), now);
}

/** A member got a session since the run started (a batch redone after a crash starts no second one). */
const sessionSince = (sel: SelectionRow) => sql`exists (select 1 from provision_sessions p
  where p.device = m.device and p.entity = m.entity and p.created_at >= ${(sel.started_at ?? new Date()).toISOString()}::timestamptz)`;

/**
 * The batches of provisioning a selection: a session on each connected member, through the
 * provisioning service, unaudited one by one (the selection's entry is the start; each session's
 * end is still recorded). A device refused when reached (no files, a session open) is logged.
 */
export const provisionBatches =
  (db: Db, service: ProvisionService, sel: SelectionRow, onError: (err: unknown, what: string) => void): Batches =>
  async (batch) => {
    const actor = { sub: sel.owner } as AccessClaims;
    const { base } = sel.args as { base: string };
    for (const m of await batchIn(db, sel.id, batch, standing(Date.now()), 'start', sessionSince(sel))) {
      await service
        .start(actor, m.entity, m.device, base, null)
        .catch((err: unknown) => onError(err, `provisioning ${m.device}`));
    }
  };

/**
 * Provisioning on every connected device of a counted selection, in batches: one
 * `provision.start` entry for the selection, with the count, the first names and the plan.
 */
export async function provisionSelection(
  db: Db,
  runner: SelectionRunner,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  base: string,
) {
  const found = await findSelection(db, scope, actor, id);
  const sel = await claimSelection(db, found, 'provision', { base }, runner.holder);
  const plan = await planFor(db, sel, Date.now());
  await auditSelection(
    db,
    ctx,
    sel,
    { action: 'provision.start', target: { type: 'provisioning', name: null } },
    { plan },
  );
  runner.run(sel);
  return { ...presentSelection(sel), plan };
}
