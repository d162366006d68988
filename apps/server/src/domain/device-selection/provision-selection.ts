import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import type { SelectionProvisionPlan } from '@fleet/shared/schemas/selection-actions';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { ProvisionService } from '../provision/provision-service.ts';
import { runSelection } from './run-selection.ts';
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

/**
 * Provisioning on every connected device of a counted selection, in batches, through the
 * provisioning service (each session is its own, recorded as its own `provision.start`; a device
 * refused when reached — no files, a session open — is logged and skipped). One `provision.start`
 * entry for the selection carries the plan.
 */
export async function provisionSelection(
  db: Db,
  service: ProvisionService,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  base: string,
  onError: (err: unknown, what: string) => void,
) {
  const sel = await claimSelection(db, await findSelection(db, scope, actor, id), 'provision');
  const plan = await planFor(db, sel, Date.now());
  await auditSelection(
    db,
    ctx,
    sel,
    { action: 'provision.start', target: { type: 'provisioning', name: null } },
    { plan },
  );
  const startBatch = async (batch: Parameters<typeof batchIn>[2]) => {
    for (const m of await batchIn(db, sel.id, batch, standing(Date.now()), 'start')) {
      await service
        .start(actor, m.entity, m.device, base, ctx)
        .catch((err: unknown) => onError(err, `provisioning ${m.device}`));
    }
  };
  void runSelection(db, sel, startBatch, onError);
  return { ...presentSelection(sel), plan };
}
