import { sql, type SQL } from 'drizzle-orm';

/**
 * Whether device `d` is in rule `r`'s scope, as SQL over `d` (devices), `r` (alert_rules) and `g`
 * (the device's group, left joined): the whole entity, a group, a site (the device's group is at
 * that site), or a saved view (`views`, from viewScopes).
 */
export const inScope = (
  views: SQL = sql`false`,
) => sql`(r.scope = 'entity' or r.scope = 'group' and d."group" = r.scope_name
  or r.scope = 'site' and g.site = r.scope_name or ${views})`;

/** The device's group, for `inScope`. */
export const groupOfDevice = sql`left join groups g on g.entity = d.entity and g.name = d."group"`;

/** A list of device names as a subquery, for `in`. */
export const nameList = (names: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))`;
