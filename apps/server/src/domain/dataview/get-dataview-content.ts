import type { DataviewContent } from '@fleet/shared/schemas/dataview';
import type { Executor } from '../../db/client.ts';
import { findDataview } from './dataview-scope.ts';

/**
 * The content of the dataview `name` of `entity`, or 404. For callers that have already
 * authorised themselves for the entity (the landlord's get by entity and name, allocation).
 */
export async function getDataviewContent(db: Executor, entity: string, name: string): Promise<DataviewContent> {
  const row = await findDataview(db, null, entity, name);
  return row.content as DataviewContent;
}
