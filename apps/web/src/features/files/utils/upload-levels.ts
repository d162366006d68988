import { FILE_LIMITS } from '@fleet/shared/constants';
import type { UploadTarget } from '../api/upload-target.ts';

/** The largest upload of a level (fleet §5: 10000000 for sites and groups; ours for the entity). */
export const uploadLimitOf = (level: UploadTarget['level']) =>
  level === 'entity' ? FILE_LIMITS.entityUpload : FILE_LIMITS.siteOrGroupUpload;

const NAMES = { entity: 'entity', site: 'site', group: 'group' } as const;

/** The dialog title's subject, e.g. 'site north_wing': by name, never by a site's or group's UUID. */
export const targetTitle = (t: UploadTarget) => `${NAMES[t.level]} ${t.name ?? t.id}`;
