import { TARGET_FIELDS, type FileLevel } from '@fleet/shared/schemas/files';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { groups, sites } from '../../db/schema.ts';
import { invalidField, notFound } from '../../lib/http-error.ts';

/** Where an upload belongs: a level and the name of its entity, site or group. */
export interface FileTarget {
  level: FileLevel;
  target: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` is the stable id of a row of `table` in `entity` (sites and groups). */
const rowOf = (table: typeof sites | typeof groups) => async (db: Db, entity: string, id: string) => {
  if (!UUID.test(id)) return false;
  const found = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.entity, entity), eq(table.id, id)));
  return found.length > 0;
};

interface Level {
  /** What a missing target is called in a 404 ('Site not found'). */
  what: string;
  /** Whether `id` names a target of this level in `entity`. */
  exists(db: Db, entity: string, id: string): Promise<boolean>;
}

/**
 * The levels files and firmware attach to. A level is a target field (TARGET_FIELDS) plus how to
 * find its target in the entity: the entity by name, a site or a group by its stable `id` (so a
 * rename keeps its uploads).
 */
export const LEVELS: Record<FileLevel, Level> = {
  entity: { what: 'Entity', exists: async (_db, entity, id) => id === entity },
  site: { what: 'Site', exists: rowOf(sites) },
  group: { what: 'Group', exists: rowOf(groups) },
};

/**
 * The target a request names with `level` and that level's field (`entity_id`, `site_id`,
 * `group_id`), checked to exist in the caller's entity: another entity's answers 404.
 */
export async function resolveTarget(
  db: Db,
  entity: string,
  level: FileLevel,
  fields: Partial<Record<string, string>>,
): Promise<FileTarget> {
  const field = TARGET_FIELDS[level];
  const id = fields[field]?.trim();
  if (!id) throw invalidField(field, `${field} is required when level is ${level}`);
  const found = LEVELS[level];
  if (!(await found.exists(db, entity, id))) throw notFound(found.what);
  return { level, target: id };
}
