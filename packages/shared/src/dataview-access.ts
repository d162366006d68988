import type { Subtype } from './constants.ts';
import { mayChange, mayReadAllDataviews as readsAll, type Actor } from './access/rule.ts';

/**
 * Who may do what with dataviews (fleet §6), from the shared rule (access/rule.ts): a superadmin,
 * or an admin with all access or Dataview_all, adds, edits, designs and deletes; every account
 * with all, Dataview_all or Dataview_read reads its entity's dataviews; anyone else of the entity
 * reads only the dataviews it owns or is authorised for.
 */

/** May add, edit, design and delete dataviews. */
export const mayChangeDataviews = (actor: Actor | null): boolean => mayChange(actor, 'dataviews');

/** Reads every dataview of its entity (others read only their own and those they are authorised for). */
export const mayReadAllDataviews = (actor: Actor): boolean => readsAll(actor);

/** Subtypes a dataview's owner and authorised accounts are chosen among (fleet §6). */
export const DATAVIEW_ACCOUNT_SUBTYPES = ['admin', 'developer'] as const satisfies readonly Subtype[];

/** Whether an account of this subtype may own or be authorised for a dataview. */
export const mayHoldDataviews = (subtype: Subtype): boolean =>
  (DATAVIEW_ACCOUNT_SUBTYPES as readonly Subtype[]).includes(subtype);
