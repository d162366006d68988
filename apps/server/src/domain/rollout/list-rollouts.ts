import { and, asc, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { RolloutDevicesQuerySchema } from '@fleet/shared/schemas/rollout';
import type { Db } from '../../db/client.ts';
import { rolloutDevices, rollouts } from '../../db/schema.ts';
import { findRollout, presentRollout, stageCounts } from './present-rollout.ts';

/** The entity's rollouts, newest first, each with its counts. */
export async function listRollouts(db: Db, entity: string) {
  const rows = await db
    .select()
    .from(rollouts)
    .where(eq(rollouts.entity, entity))
    .orderBy(desc(rollouts.created_at))
    .limit(200);
  const counts = await stageCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentRollout(r, counts.get(r.id) ?? []));
}

/** A rollout's device results (current attempts), by stage and position; filtered by state or name. */
export async function listRolloutDevices(
  db: Db,
  entity: string,
  id: string,
  q: z.infer<typeof RolloutDevicesQuerySchema>,
) {
  const row = await findRollout(db, entity, id);
  const where: SQL[] = [eq(rolloutDevices.rollout, row.id), eq(rolloutDevices.superseded, false)];
  if (q.state) where.push(eq(rolloutDevices.state, q.state));
  if (q.search) where.push(ilike(rolloutDevices.device, `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const [{ total } = { total: 0 }] = await db
    .select({ total: count() })
    .from(rolloutDevices)
    .where(and(...where));
  const data = await db
    .select()
    .from(rolloutDevices)
    .where(and(...where))
    .orderBy(asc(rolloutDevices.stage), asc(rolloutDevices.position))
    .limit(q.limit)
    .offset(q.offset);
  return {
    total,
    data: data.map((d) => ({
      device: d.device,
      stage: d.stage,
      attempt: d.attempt,
      state: d.state,
      error: d.error,
      claimed_at: d.claimed_at?.toISOString() ?? null,
      settled_at: d.settled_at?.toISOString() ?? null,
    })),
  };
}
