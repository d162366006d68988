import { and, count, eq, ne } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { devices, groups } from '../../db/schema.ts';
import { HttpError, invalidField } from '../../lib/http-error.ts';

/** The spec's "full group" has no message; ours names the group and its capacity. */
export const groupFull = (group: string, capacity: number, field?: string) => {
  const message = `Group ${group} is full: it holds ${capacity} of ${capacity} devices`;
  return new HttpError(409, message, 'Group at capacity', field ? { [field]: [message] } : undefined);
};

/**
 * Inside a transaction: locks the entity's group (so two placements cannot both take its last
 * place) and throws unless it exists and has room for `device`. A device already in it fits.
 */
export async function claimPlace(tx: Tx, entity: string, group: string, device: string, field?: string) {
  const [row] = await tx
    .select({ name: groups.name, capacity: groups.capacity })
    .from(groups)
    .where(and(eq(groups.entity, entity), eq(groups.name, group)))
    .for('update');
  if (!row) {
    if (field) throw invalidField(field, `No group named ${group}`);
    throw new HttpError(404, 'Group not found', 'Group not found');
  }
  if (row.capacity === null) return;
  const [{ n } = { n: 0 }] = await tx
    .select({ n: count() })
    .from(devices)
    .where(and(eq(devices.entity, entity), eq(devices.group, group), ne(devices.name, device)));
  if (n >= row.capacity) throw groupFull(group, row.capacity, field);
}

/**
 * Runs `write` with the device entering `group` (when one is named) as one transaction: the
 * group's place is claimed first, so capacity holds however many requests race for it.
 */
export async function inGroup<T>(
  db: Executor,
  entity: string,
  group: string | null | undefined,
  device: string,
  field: string,
  write: (tx: Executor) => Promise<T>,
): Promise<T> {
  if (!group) return write(db);
  return db.transaction(async (tx) => {
    await claimPlace(tx, entity, group, device, field);
    return write(tx);
  });
}
