import type { AccessClaims } from '@fleet/shared/schemas/session';
import { isSuperadmin } from '@fleet/shared/access/rule';
import { forbidden } from '../../lib/http-error.ts';

/** An entity's audit log is read by its admins with all access, and by superadmins. */
export function assertMayReadAudit(actor: AccessClaims): void {
  if (isSuperadmin(actor)) return;
  if (actor.subtype === 'admin' && actor.permissions.includes('all')) return;
  throw forbidden('The audit log is for admins with all access');
}
