import type { Db } from '../../db/client.ts';
import type { AuditContext } from '../audit/audit-context.ts';
import { recordAudit, type AuditEntryInput } from '../audit/audited.ts';
import { firstNames } from './run-selection.ts';
import { AUDIT_NAMES_MAX, type SelectionRow } from './selection-scope.ts';

/**
 * The one entry of an action on a selection, written when it starts: the whole count, the
 * selection's id and its first names (capped; `names_capped` says more were acted on).
 */
export async function auditSelection(
  db: Db,
  ctx: AuditContext,
  sel: SelectionRow,
  entry: Pick<AuditEntryInput, 'action' | 'target'>,
  details: Record<string, unknown> = {},
): Promise<void> {
  const names = await firstNames(db, sel, AUDIT_NAMES_MAX);
  await recordAudit(db, ctx, {
    ...entry,
    entity: sel.entity,
    details: {
      ...details,
      selection: sel.id,
      query: sel.query,
      count: sel.total,
      names,
      names_capped: sel.total > names.length,
    },
  });
}
