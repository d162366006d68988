import type { AccessClaims } from '@fleet/shared/schemas/session';
import { isSuperadmin } from '@fleet/shared/access/rule';
import { forbidden } from '../../lib/http-error.ts';

/** Webhooks (their URLs, secrets and logs) are the entity's admins' with all access, and superadmins'. */
export function assertMayManageWebhooks(actor: AccessClaims): void {
  if (isSuperadmin(actor)) return;
  if (actor.subtype === 'admin' && actor.permissions.includes('all')) return;
  throw forbidden('Webhooks are managed by admins with all access');
}
