import { UNRESPONSIVE_AFTER_MS } from '@fleet/shared/constants';
import type { SelectionFirmwarePlan, SelectionFirmwareRequest } from '@fleet/shared/schemas/selection-actions';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { DEFAULT_COMMAND_TTL_S } from '@fleet/shared/schemas/command';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firmware } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import type { Deps } from '../deps.ts';
import { firmwareById, type FirmwareRow } from '../dfu/choose-firmware.ts';
import { payloadFor } from '../dfu/send-firmware-update.ts';
import type { Batches, SelectionRunner } from './selection-runner.ts';
import { placeName } from './selection-choices.ts';
import { batchIn, commandWritten, countStandings } from './selection-members.ts';
import { auditSelection } from './selection-audit.ts';
import { claimSelection, findSelection, presentSelection, type SelectionRow } from './selection-scope.ts';

/** The firmware in the caller's scope: the entity's own, or (the landlord's list) any entity's. */
async function firmwareInScope(db: Db, scope: Scope, id: string): Promise<FirmwareRow> {
  if (scope !== null) return firmwareById(db, scope, id);
  const [row] = await db.select().from(firmware).where(eq(firmware.id, id));
  if (!row) throw notFound('Firmware');
  return row;
}

/** The member's device sits where a site- or group-level firmware is for (true for entity level). */
const inPlace = (fw: FirmwareRow): SQL => {
  if (fw.level === 'group') {
    return sql`exists (select 1 from groups g where g.entity = d.entity and g.name = d."group"
      and g.id::text = ${fw.target})`;
  }
  if (fw.level === 'site') {
    return sql`exists (select 1 from groups g join sites s on s.entity = g.entity and s.name = g.site
      where g.entity = d.entity and g.name = d."group" and s.id::text = ${fw.target})`;
  }
  return sql`true`;
};

/**
 * How each member of a selection stands to a firmware, first rule that holds: gone (deleted since
 * the count), other_type (another type, or another entity than the firmware's: never sent across
 * entities), other_place (outside the site or group the firmware was uploaded for), current (runs
 * that version), unresponsive (silent for core §4's 20 minutes), update.
 */
const standing = (fw: FirmwareRow, now: number): SQL => sql`case
  when d.name is null then 'gone'
  when d.entity <> ${fw.entity} or d.manufacturing_type <> ${fw.device_type} then 'other_type'
  when not ${inPlace(fw)} then 'other_place'
  when d.fw_version is not distinct from ${fw.version} then 'current'
  when d.updated_at < ${new Date(now - UNRESPONSIVE_AFTER_MS).toISOString()}::timestamptz then 'unresponsive'
  else 'update' end`;

async function planFor(db: Db, sel: SelectionRow, fw: FirmwareRow, now: number): Promise<SelectionFirmwarePlan> {
  const lots = await countStandings(db, sel.id, standing(fw, now));
  const n = (lot: string) => lots[lot] ?? 0;
  return {
    total: sel.total,
    update: n('update'),
    current: n('current'),
    unresponsive: n('unresponsive'),
    other_type: n('other_type'),
    other_place: n('other_place'),
    gone: n('gone'),
    version: fw.version,
    device_type: fw.device_type,
    level: fw.level,
    place: await placeName(db, fw),
  };
}

/** The dry run of a firmware update on a counted selection: who gets it and who is skipped, why. */
export async function planSelectionFirmware(
  db: Db,
  scope: Scope,
  actor: AccessClaims,
  id: string,
  req: SelectionFirmwareRequest,
  now = Date.now(),
) {
  const sel = await findSelection(db, scope, actor, id);
  return planFor(db, sel, await firmwareInScope(db, scope, req.firmware_id), now);
}

/** A firmware update's arguments as its selection row keeps them (a resumed run reads them). */
type FirmwareArgs = { firmware_id: string; expires_in_s: number; base: string };

/**
 * The batches of a firmware update to a selection, from the arguments on its row: each member the
 * plan's rule still sends it to, and that has not got it from this selection yet, gets a `dfu`
 * command with the DFU path's payload (a signed link).
 */
export async function firmwareBatches(deps: Deps, sel: SelectionRow): Promise<Batches> {
  const args = sel.args as FirmwareArgs;
  const fw = await firmwareInScope(deps.db, null, args.firmware_id);
  const req = { payload: payloadFor(deps, fw, args.expires_in_s, args.base), expires_in_s: args.expires_in_s };
  return async (batch) =>
    deps.devices.commands.toSelectionBatch(
      { sub: sel.owner } as AccessClaims,
      sel.id,
      await batchIn(deps.db, sel.id, batch, standing(fw, Date.now()), 'update', commandWritten),
      req,
    );
}

/**
 * A firmware update to every device of a counted selection that the plan says gets it, through
 * the selection's command batches: one `firmware.send` entry with the plan, rows carrying the
 * selection's id (its progress), skipped devices untouched.
 */
export async function firmwareToSelection(
  deps: Deps,
  runner: SelectionRunner,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  req: SelectionFirmwareRequest & { base: string },
) {
  const found = await findSelection(deps.db, scope, actor, id);
  const fw = await firmwareInScope(deps.db, scope, req.firmware_id);
  const args: FirmwareArgs = {
    firmware_id: fw.id,
    expires_in_s: req.expires_in_s ?? DEFAULT_COMMAND_TTL_S,
    base: req.base,
  };
  const sel = await claimSelection(deps.db, found, 'firmware', args, runner.holder);
  const plan = await planFor(deps.db, sel, fw, Date.now());
  await auditSelection(
    deps.db,
    ctx,
    sel,
    { action: 'firmware.send', target: { type: 'firmware', name: fw.id } },
    { phase: 'sent', plan },
  );
  runner.run(sel);
  return { ...presentSelection(sel), plan };
}
