import type { AccessClaims } from '@fleet/shared/schemas/session';
import { isSuperadmin } from '@fleet/shared/access/rule';
import { forbidden } from '../../lib/http-error.ts';

/**
 * Alert rules are changed by the entity's admins with all access and by superadmins; everyone of
 * the entity reads them, and reads, acknowledges and clears alerts (decisions/2026-11-27-alerts.md).
 */
export function assertMayChangeRules(actor: AccessClaims): void {
  if (isSuperadmin(actor)) return;
  if (actor.subtype === 'admin' && actor.permissions.includes('all')) return;
  throw forbidden('Alert rules are changed by admins with all access');
}
