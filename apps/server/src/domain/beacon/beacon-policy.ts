import { mayChangeBeacons } from '@fleet/shared/registry-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden } from '../../lib/http-error.ts';

/** Beacon configurations are changed by those who change the device registry; everyone of the entity reads them. */
export function assertMayChangeBeacons(actor: AccessClaims): void {
  if (!mayChangeBeacons(actor.subtype)) {
    throw forbidden('Operators and infra accounts cannot change beacon configurations');
  }
}
