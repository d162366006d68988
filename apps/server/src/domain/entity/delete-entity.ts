import { eq } from 'drizzle-orm';
import { accounts, devices, entities } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { announceRemoved, credentialsOf } from '../account/account-credentials.ts';
import type { Deps } from '../deps.ts';

/**
 * Deletes an entity and, by cascade, everything it holds (docs/decisions.md). Its users'
 * sessions and permanent tokens stop working at once, on every instance.
 */
export async function deleteEntity(deps: Deps, name: string): Promise<void> {
  const members = await deps.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.entity, name));
  const creds = await credentialsOf(
    deps.db,
    members.map((m) => m.id),
  );
  const gone = await deps.db.select({ name: devices.name }).from(devices).where(eq(devices.entity, name));
  const deleted = await deps.db.delete(entities).where(eq(entities.name, name)).returning({ name: entities.name });
  if (deleted.length === 0) throw notFound('Entity');
  announceRemoved(deps, creds);
  void deps.bus.publish('entities.removed', { names: [name] });
  await deps.devices.access.revoked(
    gone.map((d) => d.name),
    { entity: name },
  );
}
