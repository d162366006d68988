import type { DataviewContent } from '@fleet/shared/schemas/dataview';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { findDataview } from './dataview-scope.ts';

/**
 * The content of the dataview `name` of `entity` as `actor` may read it (fleet §6), or 404: for
 * callers that have already authorised themselves for the entity (allocation). A dataview the
 * actor may not read is answered as a missing one, as the dataview routes answer it.
 */
export async function getDataviewContent(
  db: Executor,
  actor: AccessClaims,
  entity: string,
  name: string,
): Promise<DataviewContent> {
  const row = await findDataview(db, actor, entity, name);
  return row.content as DataviewContent;
}
