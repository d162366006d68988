import { eq } from 'drizzle-orm';
import type { DataviewContent, DataviewUpdateSet, DataviewWithContent } from '@fleet/shared/schemas/dataview';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { dataviews } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { invalidField } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure } from '../audit/audited.ts';
import { checkDataviewAccounts, writeDataviewAccounts } from './dataview-accounts.ts';
import { contentToStore } from './dataview-content.ts';
import { assertMayChangeDataviews } from './dataview-policy.ts';
import { findDataview, presentDataview } from './dataview-scope.ts';
import { auditedDataview, dataviewTaken } from './create-dataview.ts';

/**
 * Applies `$set` to a dataview. The owner stays among the authorised accounts; a dataview whose
 * owner was deleted needs a new owner before anything else changes. Content sent empty becomes
 * the default content; content not sent is kept, its `name` following a rename.
 */
export async function updateDataview(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  name: string,
  set: DataviewUpdateSet,
): Promise<DataviewWithContent> {
  assertMayChangeDataviews(actor);
  const entry = { action: 'dataview.update', entity, target: { type: 'dataview', name } } as const;
  let before: ReturnType<typeof presentDataview> | undefined;
  let oldContent = '';
  // The content is not kept in the entry (up to a megabyte); that it changed is.
  const complete = (saved: DataviewWithContent) => ({
    before,
    after: auditedDataview(saved),
    ...(JSON.stringify(saved.content) !== oldContent ? { details: { content_changed: true } } : {}),
  });
  try {
    return await audited(db, ctx, { ...entry, complete }, async (tx) => {
      const target = await findDataview(tx, actor, entity, name);
      before = presentDataview(target, target.authorized_accounts);
      oldContent = JSON.stringify(target.content);
      const next = {
        name: set.name ?? target.name,
        description: set.description ?? target.description,
        version: set.version ?? target.version,
        owner: set.owner ?? target.owner,
      };
      if (next.owner === null) throw invalidField('owner', 'Choose an owner: the previous owner was deleted');
      const touchesAccounts = set.owner !== undefined || set.authorized_accounts !== undefined;
      const authorized = touchesAccounts
        ? await checkDataviewAccounts(tx, entity, next.owner, set.authorized_accounts ?? target.authorized_accounts, '')
        : target.authorized_accounts;
      const content =
        'content' in set
          ? contentToStore(set.content, next.name, next.description, 'content')
          : contentToStore(target.content as DataviewContent, next.name, next.description, 'content');
      const [row] = await tx
        .update(dataviews)
        .set({ ...next, content, updated_at: new Date() })
        .where(eq(dataviews.id, target.id))
        .returning();
      if (touchesAccounts) await writeDataviewAccounts(tx, target.id, authorized);
      return { ...presentDataview(row!, authorized), content };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const taken = dataviewTaken('name');
    await recordFailure(db, ctx, entry, taken);
    throw taken;
  }
}
