import { eq } from 'drizzle-orm';
import { accounts, devices, entities } from '../../db/schema.ts';
import { notFound } from '../../lib/http-error.ts';
import { announceRemoved, credentialsOf } from '../account/account-credentials.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import type { Deps } from '../deps.ts';
import { presentEntity } from './present-entity.ts';

/**
 * Deletes an entity and, by cascade, everything it holds (docs/decisions.md). Its users'
 * sessions and permanent tokens stop working at once, on every instance.
 */
export async function deleteEntity(deps: Deps, ctx: AuditContext, name: string): Promise<void> {
  const members = await deps.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.entity, name));
  const creds = await credentialsOf(
    deps.db,
    members.map((m) => m.id),
  );
  const gone = await deps.db.select({ name: devices.name }).from(devices).where(eq(devices.entity, name));
  const entry = { action: 'entity.delete', entity: null, target: { type: 'entity', name } } as const;
  const complete = (rows: Array<typeof entities.$inferSelect>) =>
    rows[0] ? { before: presentEntity(rows[0]), details: { devices: gone.length, accounts: members.length } } : null;
  const deleted = await audited(deps.db, ctx, { ...entry, complete }, (tx) =>
    tx.delete(entities).where(eq(entities.name, name)).returning(),
  );
  if (deleted.length === 0) throw notFound('Entity');
  announceRemoved(deps, creds);
  void deps.bus.publish('entities.removed', { names: [name] });
  await deps.devices.access.revoked(
    gone.map((d) => d.name),
    { entity: name },
  );
}
