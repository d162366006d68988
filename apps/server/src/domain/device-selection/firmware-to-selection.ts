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
import { runSelection } from './run-selection.ts';
import { batchIn, countStandings } from './selection-members.ts';
import { auditSelection } from './selection-audit.ts';
import { claimSelection, findSelection, presentSelection, type SelectionRow } from './selection-scope.ts';

/** The firmware in the caller's scope: the entity's own, or (the landlord's list) any entity's. */
async function firmwareInScope(db: Db, scope: Scope, id: string): Promise<FirmwareRow> {
  if (scope !== null) return firmwareById(db, scope, id);
  const [row] = await db.select().from(firmware).where(eq(firmware.id, id));
  if (!row) throw notFound('Firmware');
  return row;
}

/**
 * How each member of a selection stands to a firmware, first rule that holds: gone (deleted since
 * the count), other_type (another type, or another entity than the firmware's: never sent across
 * entities), current (runs that version), unresponsive (silent for core §4's 20 minutes), update.
 */
const standing = (fw: FirmwareRow, now: number): SQL => sql`case
  when d.name is null then 'gone'
  when d.entity <> ${fw.entity} or d.manufacturing_type <> ${fw.device_type} then 'other_type'
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
    gone: n('gone'),
    version: fw.version,
    device_type: fw.device_type,
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

/**
 * A firmware update to every device of a counted selection that the plan says gets it, through
 * the DFU path's payload (a signed link) and the selection's command batches: one `firmware.send`
 * entry with the plan, rows carrying the selection's id (its progress), skipped devices untouched.
 */
export async function firmwareToSelection(
  deps: Deps,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  id: string,
  req: SelectionFirmwareRequest & { base: string },
  onError: (err: unknown, what: string) => void,
) {
  const found = await findSelection(deps.db, scope, actor, id);
  const fw = await firmwareInScope(deps.db, scope, req.firmware_id);
  const sel = await claimSelection(deps.db, found, 'firmware');
  const plan = await planFor(deps.db, sel, fw, Date.now());
  await auditSelection(
    deps.db,
    ctx,
    sel,
    { action: 'firmware.send', target: { type: 'firmware', name: fw.id } },
    { phase: 'sent', plan },
  );
  const ttl = req.expires_in_s ?? DEFAULT_COMMAND_TTL_S;
  const payload = payloadFor(deps, fw, ttl, req.base);
  const { commands } = deps.devices;
  void runSelection(
    deps.db,
    sel,
    async (batch) =>
      commands.toSelectionBatch(
        actor,
        sel.id,
        await batchIn(deps.db, sel.id, batch, standing(fw, Date.now()), 'update'),
        {
          payload,
          expires_in_s: ttl,
        },
      ),
    onError,
  );
  return { ...presentSelection(sel), plan };
}
