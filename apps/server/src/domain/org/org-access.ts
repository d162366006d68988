import { mayReadOrg, mayWriteOrg, type OrgArea } from '@fleet/shared/org-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden } from '../../lib/http-error.ts';

/** Site_* and Group_* decide (packages/shared/src/org-access.ts; docs/decisions.md). */
export function assertMayRead(actor: AccessClaims, area: OrgArea): void {
  if (!mayReadOrg(actor, area)) throw forbidden(`Reading needs ${area}_read, ${area}_all or all access`);
}

export function assertMayWrite(actor: AccessClaims, area: OrgArea): void {
  if (!mayWriteOrg(actor, area)) throw forbidden(`Changing needs ${area}_all or all access`);
}
