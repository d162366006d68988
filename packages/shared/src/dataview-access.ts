import type { Subtype } from './constants.ts';
import type { AccessClaims } from './schemas/session.ts';

/**
 * Who may do what with dataviews (fleet §6; docs/decisions.md): a superadmin, or an admin with
 * all access or Dataview_all, adds, edits, designs and deletes; every account with all,
 * Dataview_all or Dataview_read reads its entity's dataviews; anyone else of the entity reads only
 * the dataviews it owns or is authorised for. The server enforces it; the console follows it.
 */
type Claims = Pick<AccessClaims, 'subtype' | 'permissions'>;

const WRITE_ACCESS = ['all', 'Dataview_all'];
const READ_ACCESS = [...WRITE_ACCESS, 'Dataview_read'];

const holds = (actor: Claims, values: string[]) => actor.permissions.some((p) => values.includes(p));

/** May add, edit, design and delete dataviews. */
export const mayChangeDataviews = (actor: Claims | null): boolean =>
  actor !== null && (actor.subtype === 'sadmin' || (actor.subtype === 'admin' && holds(actor, WRITE_ACCESS)));

/** Reads every dataview of its entity (others read only their own and those they are authorised for). */
export const mayReadAllDataviews = (actor: Claims): boolean => actor.subtype === 'sadmin' || holds(actor, READ_ACCESS);

/** Subtypes a dataview's owner and authorised accounts are chosen among (fleet §6). */
export const DATAVIEW_ACCOUNT_SUBTYPES = ['admin', 'developer'] as const satisfies readonly Subtype[];

/** Whether an account of this subtype may own or be authorised for a dataview. */
export const mayHoldDataviews = (subtype: Subtype): boolean =>
  (DATAVIEW_ACCOUNT_SUBTYPES as readonly Subtype[]).includes(subtype);
