import { mayChangeDevices } from '@fleet/shared/registry-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden } from '../../lib/http-error.ts';

/**
 * The device registry is changed by superadmins, admins and developers; operators and infra
 * read it and send commands. docs/decisions.md.
 */
export function assertMayChangeDevices(actor: AccessClaims): void {
  if (!mayChangeDevices(actor.subtype)) {
    throw forbidden('Operators and infra accounts cannot change the device registry');
  }
}
