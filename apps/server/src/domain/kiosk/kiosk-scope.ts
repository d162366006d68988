import type { Kiosk } from '@fleet/shared/schemas/kiosk';
import type { PageQuery } from '@fleet/shared/schemas/list';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Executor } from '../../db/client.ts';
import { kiosks } from '../../db/schema.ts';
import { presentLocation } from '../org/location.ts';
import { findNamed, listNamed } from '../org/named-rows.ts';
import { assertMayRead } from '../org/org-access.ts';

export type KioskRow = typeof kiosks.$inferSelect;

/** What the API shows of a kiosk. */
export function presentKiosk(row: KioskRow): Kiosk {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    location: presentLocation(row),
    state: { current: row.state_current },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The entity's kiosk of that name, or 404. */
export const findKiosk = (db: Executor, entity: string, name: string) => findNamed(db, kiosks, entity, name, 'Kiosk');

/** The entity's kiosks by name (kiosks are read with the Site rights). */
export async function listKiosks(db: Executor, actor: AccessClaims, entity: string, page: PageQuery) {
  assertMayRead(actor, 'Site');
  const { rows, total } = await listNamed(db, kiosks, entity, page);
  return { data: rows.map(presentKiosk), total };
}

/** One kiosk of the entity. */
export async function getKiosk(db: Executor, actor: AccessClaims, entity: string, name: string) {
  assertMayRead(actor, 'Site');
  return presentKiosk(await findKiosk(db, entity, name));
}
