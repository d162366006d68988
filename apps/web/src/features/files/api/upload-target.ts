import { TARGET_FIELDS, type FileLevel } from '@fleet/shared/schemas/files';

/** What files and firmware belong to: the entity, a site or a group, by name. */
export interface UploadTarget {
  level: FileLevel;
  /** The entity's name, or the site's or group's id (a UUID). */
  id: string;
  /** What the user knows it by, for titles: the site's or group's name (the entity's is its id). */
  name?: string;
}

/** The level and its target field (`entity_id`, `site_id`, `group_id`), as form fields or a query. */
export function targetFields(t: UploadTarget): Record<string, string> {
  return { level: t.level, [TARGET_FIELDS[t.level]]: t.id };
}

export const uploadKeys = {
  files: (t: UploadTarget) => ['files', t.level, t.id] as const,
  firmware: (t: UploadTarget) => ['firmware', t.level, t.id] as const,
};
