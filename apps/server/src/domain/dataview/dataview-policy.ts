import { mayChangeDataviews } from '@fleet/shared/dataview-access';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden } from '../../lib/http-error.ts';

/** Refuses (403) an actor the shared rule does not let add, edit, design or delete dataviews (fleet §6). */
export function assertMayChangeDataviews(actor: AccessClaims): void {
  if (!mayChangeDataviews(actor)) {
    throw forbidden('Only superadmins and admins with all access or Dataview_all change dataviews');
  }
}
