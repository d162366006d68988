import type { BulkCommandAnswer, CommandCounts } from '@fleet/shared/schemas/command';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { DEFAULT_COMMAND_TTL_S } from '@fleet/shared/schemas/command';
import type { DfuPayload } from '@fleet/shared/protocol';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { recordFailure } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { heldPrefix } from '../command/held-text.ts';
import { presentCommand, type CommandRow } from '../command/present-command.ts';
import { planFirmwareUpdates } from './plan-firmware-updates.ts';
import type { FirmwareRow } from './choose-firmware.ts';

interface Request {
  firmware_id?: string | undefined;
  expires_in_s?: number | undefined;
  /** Where devices reach this server: PUBLIC_URL, or the origin the caller used. */
  base: string;
}

/** The dfu payload for one firmware: a signed link valid while the command waits plus the update’s own time (rollouts send it too). */
export function payloadFor(deps: Deps, fw: FirmwareRow, ttlS: number, base: string): DfuPayload {
  const until = new Date(Date.now() + ttlS * 1000 + deps.config.DFU_TIMEOUT_S * 1000);
  return {
    type: 'dfu',
    firmware_id: fw.id,
    version: fw.version,
    url: new URL(deps.downloads.path('firmware', fw.id, until), base).toString(),
    sha256: fw.sha256,
    size: Number(fw.size_bytes),
  };
}

async function dispatch(
  deps: Deps,
  audit: AuditContext,
  actor: AccessClaims,
  entity: string,
  names: string[],
  req: Request,
  target: 'device' | 'devices',
) {
  const plan = await planFirmwareUpdates(deps.db, entity, names, req.firmware_id);
  const ttl = req.expires_in_s ?? DEFAULT_COMMAND_TTL_S;
  const rows: Array<{ row: CommandRow; version: string }> = [];
  for (const batch of plan.batches) {
    const payload = payloadFor(deps, batch.firmware, ttl, req.base);
    const started = await deps.devices.commands.start(
      actor,
      entity,
      batch.devices,
      target,
      { payload, expires_in_s: ttl },
      audit,
    );
    rows.push(...started.map((row) => ({ row, version: batch.firmware.version })));
  }
  return { plan, rows };
}

/**
 * `mqtt/dfu/{device}`: sends the device its firmware update. Answers at once: `started` when it
 * went out (it succeeds when the device reports the new version), `queued` while it sleeps.
 * Recorded as `firmware.send` with the row; a device without firmware for it as a failure.
 */
export async function updateDeviceFirmware(
  deps: Deps,
  audit: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  req: Request,
) {
  try {
    return await updateOne(deps, audit, actor, entity, name, req);
  } catch (err) {
    const entry = { action: 'firmware.send', target: { type: 'device', name } } as const;
    if (err instanceof HttpError) await recordFailure(deps.db, audit, entry, err);
    throw err;
  }
}

async function updateOne(
  deps: Deps,
  audit: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  req: Request,
) {
  const { plan, rows } = await dispatch(deps, audit, actor, entity, [name], req, 'device');
  if (plan.missing.length > 0) throw notFound('Device');
  const refused = plan.refused[0];
  if (refused) throw new HttpError(409, refused.error, `Device ${name}: ${refused.error}`);
  const { row, version } = rows[0]!;
  if (row.state === 'queued') {
    const { prefix, when } = await heldPrefix(deps.db, entity, name);
    return {
      status: 'queued' as const,
      userMessage: `${prefix}: firmware ${version} goes out when ${when}`,
      data: presentCommand(row),
    };
  }
  return {
    status: 'started' as const,
    userMessage: `Firmware update to ${version} started on device ${name}`,
    data: presentCommand(row),
  };
}

/** `mqtt/dfu/devices`: each device gets the firmware chosen for it; answers how each one went out. */
export async function updateDevicesFirmware(
  deps: Deps,
  audit: AuditContext,
  actor: AccessClaims,
  entity: string,
  names: string[],
  req: Request,
): Promise<BulkCommandAnswer> {
  const { plan, rows } = await dispatch(deps, audit, actor, entity, names, req, 'devices');
  const counts: CommandCounts = { succeeded: 0, failed: plan.refused.length, timed_out: 0, queued: 0, sent: 0 };
  for (const { row } of rows) if (row.state === 'queued' || row.state === 'sent') counts[row.state]++;
  const missing = plan.missing.length;
  const parts = [
    `${counts.sent} started`,
    counts.queued && `${counts.queued} held until they wake`,
    counts.failed && `${counts.failed} without firmware`,
    missing && `${missing} not found`,
  ].filter(Boolean);
  const total = names.length;
  const bad = counts.failed + missing;
  return {
    status: bad === 0 ? 'success' : counts.sent + counts.queued === 0 ? 'failed' : 'partial',
    userMessage: `Update Firmware to ${total} device${total === 1 ? '' : 's'}: ${parts.join(', ')}`,
    data: {
      counts,
      results: [
        ...rows.map(({ row }) => ({ device: row.device, state: row.state, error: null })),
        ...plan.refused.map((r) => ({ device: r.device, state: 'failed' as const, error: r.error })),
        ...plan.missing.map((device) => ({ device, state: 'not_found' as const, error: null })),
      ],
    },
  };
}
