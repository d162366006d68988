import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { ALLOCATED_STATE, NO_KIOSK_INFORMATION, type AllocateRequestSchema } from '@fleet/shared/schemas/allocation';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import { allocations, devices } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, invalidField } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure } from '../audit/audited.ts';
import { getDataviewContent } from '../dataview/get-dataview-content.ts';
import type { Deps } from '../deps.ts';
import { findDeviceInScope, type DeviceRow } from '../device/device-scope.ts';
import { claimPlace } from '../group/group-room.ts';
import { findGroup } from '../group/group-scope.ts';
import { findKiosk } from '../kiosk/kiosk-scope.ts';
import { assertMayWrite } from '../org/org-access.ts';
import { tellDevice, type KioskReply } from './kiosk-answer.ts';
import { presentAllocation } from './present-allocation.ts';

type Request = z.output<typeof AllocateRequestSchema>;

const noKiosk = (developerMessage: string) => new HttpError(409, NO_KIOSK_INFORMATION, developerMessage);

/**
 * The dataviews' JSON: what the caller sent for each, or the dataview's stored content when empty.
 * An allocation carries only dataviews the caller may read; another is answered as a missing one.
 */
async function resolveApps(deps: Deps, actor: AccessClaims, entity: string, apps: Request['apps']) {
  const resolved: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(apps)) {
    let content: unknown;
    try {
      content = await getDataviewContent(deps.db, actor, entity, name);
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 404)
        throw invalidField(`apps.${name}`, `No dataview named ${name}`);
      throw err;
    }
    resolved[name] = value ?? content;
  }
  return resolved;
}

/**
 * The device's kiosk: the kiosk of its last dispenser, which must be the kiosk it is allocated
 * from. A device without one cannot be allocated (fleet §4).
 */
async function kioskOf(deps: Deps, entity: string, device: DeviceRow, kiosk: string) {
  if (!device.last_dispenser) throw noKiosk('The device has no last dispenser');
  const { row } = await findGroup(deps.db, entity, device.last_dispenser);
  if (!row.kiosk) throw noKiosk(`Dispenser ${row.name} belongs to no kiosk`);
  if (row.kiosk !== kiosk) {
    throw new HttpError(409, `Device ${device.name} is at kiosk ${row.kiosk}, not ${kiosk}`, 'Wrong kiosk');
  }
  return row.name;
}

/**
 * POST kiosk/{entity}/{kiosk}/allocate: records the allocation (history), takes the device out of
 * its dispenser in state ALLOCATED, and sends it the `allocate` command. At most one open
 * allocation per device (a unique index): of racing allocations exactly one wins, the others 409.
 * A device that refuses closes the allocation as `refused` and gets its place back.
 */
export async function allocateDevice(
  deps: Deps,
  audit: AuditContext,
  actor: AccessClaims,
  entity: string,
  kiosk: string,
  req: Request,
): Promise<KioskReply> {
  assertMayWrite(actor, 'Group');
  const { db } = deps;
  const entry = { action: 'allocation.create', entity, target: { type: 'device', name: req.device } } as const;
  let device: DeviceRow, dispenser: string, apps: Record<string, unknown>;
  try {
    await findKiosk(db, entity, kiosk);
    device = await findDeviceInScope(db, req.device, entity);
    dispenser = await kioskOf(deps, entity, device, kiosk);
    apps = await resolveApps(deps, actor, entity, req.apps);
  } catch (err) {
    if (err instanceof HttpError) await recordFailure(db, audit, { ...entry, details: { kiosk } }, err);
    throw err;
  }
  const network = req.network ?? null;
  const id = randomUUID();
  const after = { id, kiosk, dispenser, visitor: req.visitor, apps: Object.keys(apps), network: network !== null };
  const before = { state: device.state_current, group: device.group };
  // The entry keeps the dataviews' names, never their content or the network's credentials.
  const row = await audited(
    db,
    audit,
    { ...entry, before, after: { ...after, state: ALLOCATED_STATE, group: null } },
    async (tx) => {
      try {
        const [inserted] = await tx
          .insert(allocations)
          .values({
            id,
            device: device.name,
            entity,
            kiosk,
            dispenser,
            visitor: req.visitor,
            apps,
            network,
            allocated_by: actor.sub,
          })
          .returning();
        await tx
          .update(devices)
          .set({ state_current: ALLOCATED_STATE, group: null })
          .where(eq(devices.name, device.name));
        return inserted!;
      } catch (err) {
        // Of racing allocations one wins; the others roll back and are recorded as refused.
        if (!isUniqueViolation(err)) throw err;
        throw new HttpError(409, `Device ${device.name} is already allocated`, 'The device has an open allocation');
      }
    },
  );
  const payload = { type: 'allocate' as const, allocation_id: id, visitor: req.visitor, kiosk, apps, network };
  try {
    // Every dataview the allocation carries was read by the actor in resolveApps.
    return await tellDevice(
      deps,
      actor,
      entity,
      device.name,
      payload,
      presentAllocation(row, () => true),
    );
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 502) await undo(deps, audit, entity, device, id, err);
    throw err;
  }
}

/**
 * The device refused: the allocation closes as refused (recorded as a failed `allocation.create`
 * with the device's reason); the device gets its state and, if there is room, its place back.
 */
async function undo(deps: Deps, audit: AuditContext, entity: string, device: DeviceRow, id: string, err: HttpError) {
  const entry = {
    action: 'allocation.create',
    entity,
    target: { type: 'device', name: device.name },
    outcome: 'failure',
    reason: `Refused by the device: ${err.developerMessage || err.message}`,
    details: { allocation_id: id },
    before: { state: ALLOCATED_STATE, group: null },
    complete: (group: string | null) => ({ after: { state: device.state_current, group } }),
  } as const;
  await audited(deps.db, audit, entry, async (tx) => {
    await tx
      .update(allocations)
      .set({ returned_at: new Date(), outcome: 'refused' })
      .where(and(eq(allocations.id, id), isNull(allocations.returned_at)));
    let group = device.group;
    if (group) {
      try {
        await claimPlace(tx, entity, group, device.name);
      } catch {
        group = null;
      }
    }
    await tx.update(devices).set({ state_current: device.state_current, group }).where(eq(devices.name, device.name));
    return group;
  });
}
