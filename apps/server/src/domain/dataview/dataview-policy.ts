import type { AccessClaims } from '@fleet/shared/schemas/session';
import { forbidden } from '../../lib/http-error.ts';

/**
 * Who may do what with dataviews (fleet §6), enforced here and mirrored by the console:
 * a superadmin, or an admin with all access or Dataview_all, adds, edits, designs and deletes;
 * every account with all, Dataview_all or Dataview_read reads its entity's dataviews; anyone
 * else of the entity reads only the dataviews it owns or is authorised for. docs/decisions.md.
 */
const WRITE_ACCESS = ['all', 'Dataview_all'];
const READ_ACCESS = [...WRITE_ACCESS, 'Dataview_read'];

const holds = (actor: AccessClaims, values: string[]) => actor.permissions.some((p) => values.includes(p));

/** May add, edit, design and delete dataviews. */
export const mayChangeDataviews = (actor: AccessClaims) =>
  actor.subtype === 'sadmin' || (actor.subtype === 'admin' && holds(actor, WRITE_ACCESS));

/** Reads every dataview of its entity (others read only their own and those they are authorised for). */
export const mayReadAllDataviews = (actor: AccessClaims) => actor.subtype === 'sadmin' || holds(actor, READ_ACCESS);

export function assertMayChangeDataviews(actor: AccessClaims): void {
  if (!mayChangeDataviews(actor)) {
    throw forbidden('Only superadmins and admins with all access or Dataview_all change dataviews');
  }
}
