import type { z } from 'zod';
import type { Rollout, RolloutCreateSchema } from '@fleet/shared/schemas/rollout';
import type { Db } from '../../db/client.ts';
import { rollouts } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { firmwareById } from '../dfu/choose-firmware.ts';
import type { Delivered } from './dry-run-rollout.ts';
import { presentRollout } from './present-rollout.ts';
import { targetFilter } from './rollout-target.ts';

export type RolloutInput = z.infer<typeof RolloutCreateSchema>;

/** What a rollout delivers: the named firmware's version and type, or (a file set) neither. */
export async function deliveredBy(
  db: Db,
  entity: string,
  input: { delivery: string; firmware_id?: string | undefined },
): Promise<Delivered> {
  if (input.delivery === 'files' || !input.firmware_id) return { version: null, device_type: null };
  return firmwareById(db, entity, input.firmware_id);
}

/**
 * A new rollout, a draft: it delivers the named firmware (its version, for its device type) or each device's
 * file set, and reaches nothing until it starts. Recorded as `rollout.create`.
 */
export async function createRollout(
  db: Db,
  audit: AuditContext,
  who: { actor: string; entity: string; base: string },
  input: RolloutInput,
) {
  const { actor, entity } = who;
  const fw = await deliveredBy(db, entity, input);
  // A saved view must exist (shared) when the rollout is created; it is read again when it starts.
  if (input.target.kind === 'view') await targetFilter(db, entity, input.target, 400);
  const { window, ...rest } = input;
  return audited(
    db,
    audit,
    {
      action: 'rollout.create',
      entity,
      target: { type: 'rollout', name: input.name },
      complete: (r: Rollout) => ({
        after: { id: r.id, version: r.version, device_type: r.device_type, target: r.target },
      }),
    },
    async (tx) => {
      const [row] = await tx
        .insert(rollouts)
        .values({
          ...rest,
          firmware_id: input.firmware_id ?? null,
          send_window: window,
          entity,
          version: fw.version,
          device_type: fw.device_type,
          created_by: actor,
          download_base: who.base,
        })
        .returning();
      return presentRollout(row!, []);
    },
  );
}
