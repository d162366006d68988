import type { z } from 'zod';
import type { Rollout, RolloutCreateSchema } from '@fleet/shared/schemas/rollout';
import type { Db } from '../../db/client.ts';
import { rollouts } from '../../db/schema.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { firmwareById } from '../dfu/choose-firmware.ts';
import { presentRollout } from './present-rollout.ts';

export type RolloutInput = z.infer<typeof RolloutCreateSchema>;

/**
 * A new rollout, a draft: it delivers the named firmware (its version, for its device type) and
 * reaches nothing until it starts. Recorded as `rollout.create`.
 */
export async function createRollout(
  db: Db,
  audit: AuditContext,
  who: { actor: string; entity: string; base: string },
  input: RolloutInput,
) {
  const { actor, entity } = who;
  const fw = await firmwareById(db, entity, input.firmware_id);
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
          ...input,
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
