import type { Location, LocationInputSchema } from '@fleet/shared/schemas/place';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { kiosks, sites } from '../../db/schema.ts';
import { assertReferenceExists } from './named-rows.ts';

type LocationInput = z.output<typeof LocationInputSchema>;

/** The columns of a location (site, floor, coordinates). */
export function locationColumns(location: LocationInput) {
  return {
    site: location.site ?? null,
    floor: location.floor ?? null,
    latitude: location.gps_coordinates?.[0] ?? null,
    longitude: location.gps_coordinates?.[1] ?? null,
  };
}

/** A location as answered: coordinates as latitude then longitude. */
export function presentLocation(row: {
  site: string | null;
  floor: number | null;
  latitude: number | null;
  longitude: number | null;
}): Location {
  return {
    site: row.site,
    floor: row.floor,
    gps_coordinates: row.latitude === null || row.longitude === null ? null : [row.latitude, row.longitude],
  };
}

/** The site and kiosk a location or group names exist in the entity. */
export async function assertPlacesExist(
  db: Executor,
  entity: string,
  prefix: string,
  refs: { site?: string | null; kiosk?: string | null },
): Promise<void> {
  await assertReferenceExists(db, sites, entity, refs.site, `${prefix}location.site`, 'Site');
  await assertReferenceExists(db, kiosks, entity, refs.kiosk, `${prefix}kiosk`, 'Kiosk');
}
