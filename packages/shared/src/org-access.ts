/**
 * Who reads and changes the organisation (core §6's access values): the landlord and accounts
 * with `all` always; others by `Site_read`/`Site_all` for sites and kiosks (kiosks stand at
 * sites) and `Group_read`/`Group_all` for groups. The subtype plays no part. The server enforces
 * it; the console hides what it would refuse.
 */
export type OrgArea = 'Site' | 'Group';

interface Actor {
  subtype: string;
  permissions: readonly string[];
}

const mayAll = (actor: Actor) => actor.subtype === 'sadmin' || actor.permissions.includes('all');

/** True when the actor may read the area. */
export function mayReadOrg(actor: Actor, area: OrgArea): boolean {
  return mayAll(actor) || actor.permissions.includes(`${area}_read`) || actor.permissions.includes(`${area}_all`);
}

/** True when the actor may create, change and delete in the area. */
export function mayWriteOrg(actor: Actor, area: OrgArea): boolean {
  return mayAll(actor) || actor.permissions.includes(`${area}_all`);
}
