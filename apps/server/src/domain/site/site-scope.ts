import type { Site } from '@fleet/shared/schemas/site';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { sites } from '../../db/schema.ts';
import { findNamed, listNamed } from '../org/named-rows.ts';
import { assertMayRead } from '../org/org-access.ts';

export type SiteRow = typeof sites.$inferSelect;

/** What the API shows of a site. */
export function presentSite(row: SiteRow): Site {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    address: {
      street: row.street,
      number: row.number,
      postalcode: row.postalcode,
      city: row.city,
      region: row.region,
      country: row.country,
    },
    gps_coordinates: [row.latitude, row.longitude],
    networkinfo: row.networkinfo,
    globalinfo: row.globalinfo,
    allocinfo: row.allocinfo,
    unallocinfo: row.unallocinfo,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The entity's site of that name, or 404. */
export const findSite = (db: Executor, entity: string, name: string) => findNamed(db, sites, entity, name, 'Site');

/** The entity's sites by name. */
export async function listSites(db: Executor, actor: AccessClaims, entity: string, page: PageQuery) {
  assertMayRead(actor, 'Site');
  const { rows, total } = await listNamed(db, sites, entity, page);
  return { data: rows.map(presentSite), total };
}

/** One site of the entity. */
export async function getSite(db: Executor, actor: AccessClaims, entity: string, name: string) {
  assertMayRead(actor, 'Site');
  return presentSite(await findSite(db, entity, name));
}
