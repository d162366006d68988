import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SelectionGroupPlan, SelectionGroupRequest } from '@fleet/shared/schemas/selection-actions';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db, Executor } from '../../db/client.ts';
import { devices, groups } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { GroupRow } from '../group/group-scope.ts';
import { assertMayWrite } from '../org/org-access.ts';
import type { Member } from './run-selection.ts';
import type { Batches, SelectionRunner } from './selection-runner.ts';
import { auditSelection } from './selection-audit.ts';
import { batchIn, countStandings } from './selection-members.ts';
import { claimSelection, findSelection, presentSelection, type SelectionRow } from './selection-scope.ts';

/** The group in the caller's scope, locked when `forUpdate`: the entity's own, or any (landlord). */
async function groupInScope(db: Executor, scope: Scope, id: string, forUpdate = false): Promise<GroupRow> {
  const query = db
    .select()
    .from(groups)
    .where(scope === null ? eq(groups.id, id) : and(eq(groups.entity, scope), eq(groups.id, id)));
  const [row] = await (forUpdate ? query.for('update') : query);
  if (!row) throw notFound('Group');
  return row;
}

/** Devices in the group now. */
async function occupied(db: Executor, g: GroupRow): Promise<number> {
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(devices)
    .where(and(eq(devices.entity, g.entity), eq(devices.group, g.name)));
  return n;
}

/** Each member's lot, first rule that holds: gone, other_entity (never across entities), already, put. */
const standing = (g: GroupRow): SQL => sql`case
  when d.name is null then 'gone'
  when d.entity <> ${g.entity} then 'other_entity'
  when d."group" is not distinct from ${g.name} then 'already'
  else 'put' end`;

async function planFor(db: Db, sel: SelectionRow, g: GroupRow): Promise<SelectionGroupPlan> {
  const lots = await countStandings(db, sel.id, standing(g));
  const n = (lot: string) => lots[lot] ?? 0;
  const room = g.capacity === null ? Infinity : Math.max(0, g.capacity - (await occupied(db, g)));
  const put = Math.min(n('put'), room);
  return {
    total: sel.total,
    put,
    already: n('already'),
    other_entity: n('other_entity'),
    gone: n('gone'),
    full: n('put') - put,
    group: g.name,
    capacity: g.capacity,
  };
}

/** The dry run of putting a counted selection into a group: who moves in, who does not and why. */
export async function planSelectionGroup(
  db: Db,
  scope: Scope,
  actor: AccessClaims,
  id: string,
  req: SelectionGroupRequest,
) {
  assertMayWrite(actor, 'Group');
  const sel = await findSelection(db, scope, actor, id);
  return planFor(db, sel, await groupInScope(db, scope, req.group_id));
}

/**
 * One batch: the group locked (as a single placement does), then as many of the batch's `put`
 * devices as it has room for take it as their group and last dispenser.
 */
async function putBatch(db: Db, sel: SelectionRow, groupId: string, batch: Member[]) {
  await db.transaction(async (tx) => {
    const g = await groupInScope(tx, sel.entity, groupId, true);
    let wanted = await batchIn(tx, sel.id, batch, standing(g), 'put');
    if (g.capacity !== null) wanted = wanted.slice(0, Math.max(0, g.capacity - (await occupied(tx, g))));
    if (wanted.length === 0) return;
    await tx
      .update(devices)
      .set({ group: g.name, last_dispenser: g.name })
      .where(
        and(
          eq(devices.entity, g.entity),
          inArray(
            devices.name,
            wanted.map((m) => m.device),
          ),
        ),
      );
  });
}

/** The batches of putting a selection into the group its row names (a member in it already stays). */
export const groupBatches =
  (db: Db, sel: SelectionRow): Batches =>
  (batch) =>
    putBatch(db, sel, (sel.args as { group_id: string }).group_id, batch);

/**
 * Puts every device of a counted selection into the group, in batches, within the group's entity
 * and capacity: one `device.update` entry naming the group and the plan.
 */
export async function groupSelection(
  db: Db,
  runner: SelectionRunner,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  req: SelectionGroupRequest,
) {
  assertMayWrite(actor, 'Group');
  const found = await findSelection(db, scope, actor, id);
  const g = await groupInScope(db, scope, req.group_id);
  const sel = await claimSelection(db, found, 'group', { group_id: g.id }, runner.holder);
  const plan = await planFor(db, sel, g);
  await auditSelection(
    db,
    ctx,
    sel,
    { action: 'device.update', target: { type: 'group', name: g.name } },
    { put_in_group: g.name, plan },
  );
  runner.run(sel);
  return { ...presentSelection(sel), plan };
}
