import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { beaconConfigs } from '../../db/schema.ts';
import type { Bus } from '../../lib/bus.ts';
import type { BeaconConfigRow } from './present-beacon.ts';

/**
 * Each entity's beacon configurations by MAC, read once and kept until a configuration of the
 * entity changes on any instance (the bus's `beacons.changed`): sightings never wait on a query
 * per message.
 */
export class BeaconConfigCache {
  private byEntity = new Map<string, Promise<Map<string, BeaconConfigRow>>>();
  /** The same, once read: a sighting of a loaded entity is judged without waiting. */
  private loadedByEntity = new Map<string, Map<string, BeaconConfigRow>>();

  constructor(
    private readonly db: Db,
    bus: Bus,
  ) {
    bus.subscribe('beacons.changed', ({ entity }) => {
      this.byEntity.delete(entity);
      this.loadedByEntity.delete(entity);
    });
  }

  /** The entity's configurations when they are already read, else undefined (then use entity()). */
  loaded(entity: string): Map<string, BeaconConfigRow> | undefined {
    return this.loadedByEntity.get(entity);
  }

  /** The entity's configurations by MAC (loaded on first use). */
  entity(entity: string): Promise<Map<string, BeaconConfigRow>> {
    let entry = this.byEntity.get(entity);
    if (!entry) {
      entry = this.db
        .select()
        .from(beaconConfigs)
        .where(eq(beaconConfigs.entity, entity))
        .then((rows) => new Map(rows.map((r) => [r.beacon_mac, r])));
      const self = entry;
      // Kept only while still current: a change during the read makes the next use read again.
      entry.then(
        (map) => this.byEntity.get(entity) === self && this.loadedByEntity.set(entity, map),
        // A failed read is not kept: the next sighting tries again.
        () => this.byEntity.get(entity) === self && this.byEntity.delete(entity),
      );
      this.byEntity.set(entity, entry);
    }
    return entry;
  }
}
