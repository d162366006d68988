import { sql } from 'drizzle-orm';

/**
 * Whether device `d` is in rule `r`'s scope, as SQL over `d` (devices), `r` (alert_rules) and `g`
 * (the device's group, left joined): the whole entity, a group, or a site (the device's group is
 * at that site).
 */
export const inScope = sql`(r.scope = 'entity' or r.scope = 'group' and d."group" = r.scope_name
  or r.scope = 'site' and g.site = r.scope_name)`;

/** The device's group, for `inScope`. */
export const groupOfDevice = sql`left join groups g on g.entity = d.entity and g.name = d."group"`;
