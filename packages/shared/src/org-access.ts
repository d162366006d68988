import { mayChange, mayRead, type Actor } from './access/rule.ts';

/**
 * Who reads and changes the organisation (core §6's access values), from the shared rule
 * (access/rule.ts): the landlord and `all` always; others by `Site_read`/`Site_all` for sites and
 * kiosks and `Group_read`/`Group_all` for groups. The subtype plays no part.
 */
export type OrgArea = 'Site' | 'Group';

const AREA = { Site: 'sites', Group: 'groups' } as const;

/** True when the actor may read the area. */
export const mayReadOrg = (actor: Actor, area: OrgArea): boolean => mayRead(actor, AREA[area]);

/** True when the actor may create, change and delete in the area. */
export const mayWriteOrg = (actor: Actor, area: OrgArea): boolean => mayChange(actor, AREA[area]);
