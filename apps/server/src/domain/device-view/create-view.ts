import type { z } from 'zod';
import type { SavedViewCreateSchema } from '@fleet/shared/schemas/device-view';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { savedViews } from '../../db/schema.ts';
import type { Scope } from '../account/account-scope.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { audited } from '../audit/audited.ts';
import { auditedView, presentView, type ViewRow } from './view-scope.ts';

/** Saves a named filter and sort of the scope's device list, owned by the caller. */
export async function createView(
  db: Db,
  ctx: AuditContext,
  actor: AccessClaims,
  scope: Scope,
  doc: z.output<typeof SavedViewCreateSchema>,
) {
  const entry = { action: 'view.create', entity: scope, target: { type: 'view', name: doc.name } } as const;
  const row = await audited(
    db,
    ctx,
    { ...entry, complete: (r: ViewRow) => ({ after: auditedView(r) }) },
    async (tx): Promise<ViewRow> => {
      const [created] = await tx
        .insert(savedViews)
        .values({ entity: scope, owner: actor.sub, name: doc.name, query: doc.query, shared: doc.shared })
        .returning();
      return created!;
    },
  );
  return presentView(row, actor);
}
