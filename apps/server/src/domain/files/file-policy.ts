import { mayChangeFiles } from '@fleet/shared/registry-access';
import { FILE_LIMITS } from '@fleet/shared/constants';
import type { FileLevel } from '@fleet/shared/schemas/files';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden } from '../../lib/http-error.ts';

/** Files and firmware are uploaded and deleted by superadmins, admins and developers; every role lists them. */
export function assertMayChangeFiles(actor: AccessClaims): void {
  if (!mayChangeFiles(actor.subtype)) {
    throw forbidden('Operators and infra accounts cannot change files and firmware');
  }
}

/** The largest upload of a level (fleet §5; the entity's is ours, docs/decisions.md). */
export const uploadLimit = (level: FileLevel) =>
  level === 'entity' ? FILE_LIMITS.entityUpload : FILE_LIMITS.siteOrGroupUpload;

/** The limit the stream is read with, before the level is known (fields may follow the file). */
export const STREAM_LIMIT = Math.max(FILE_LIMITS.entityUpload, FILE_LIMITS.siteOrGroupUpload);
