import { eq } from 'drizzle-orm';
import type { DataviewCreateDocumentSchema, DataviewWithContent } from '@fleet/shared/schemas/dataview';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { dataviews, entities } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited, recordFailure } from '../audit/audited.ts';
import { checkDataviewAccounts, writeDataviewAccounts } from './dataview-accounts.ts';
import { contentToStore } from './dataview-content.ts';
import { assertMayChangeDataviews } from './dataview-policy.ts';
import { presentDataview } from './dataview-scope.ts';

type Document = z.output<typeof DataviewCreateDocumentSchema>;

export const dataviewTaken = (field = 'document.name') =>
  new HttpError(409, 'A dataview with this name already exists', 'Dataview name taken in this entity', {
    [field]: ['A dataview with this name already exists'],
  });

/** What an audit entry keeps of a dataview: everything but its content (up to a megabyte). */
export const auditedDataview = ({ content: _content, ...rest }: DataviewWithContent) => rest;

/** Adds a dataview to the entity; empty content becomes the default content. */
export async function createDataview(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  entity: string,
  doc: Document,
): Promise<DataviewWithContent> {
  assertMayChangeDataviews(actor);
  const content = contentToStore(doc.content, doc.name, doc.description);
  const entry = { action: 'dataview.create', entity, target: { type: 'dataview', name: doc.name } } as const;
  const complete = (created: DataviewWithContent) => ({ after: auditedDataview(created) });
  try {
    return await audited(db, ctx, { ...entry, complete }, async (tx) => {
      const [ent] = await tx.select({ name: entities.name }).from(entities).where(eq(entities.name, entity));
      if (!ent) throw notFound('Entity');
      const authorized = await checkDataviewAccounts(tx, entity, doc.owner, doc.authorized_accounts);
      const [row] = await tx
        .insert(dataviews)
        .values({
          entity,
          name: doc.name,
          description: doc.description,
          version: doc.version,
          owner: doc.owner,
          content,
        })
        .returning();
      await writeDataviewAccounts(tx, row!.id, authorized);
      return { ...presentDataview(row!, authorized), content };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const taken = dataviewTaken();
    await recordFailure(db, ctx, entry, taken);
    throw taken;
  }
}
