import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import type { TelemetryBatcher } from '../telemetry/telemetry-batcher.ts';

export interface DevicePresence {
  name: string;
  state_current: string | null;
  updated_at: Date | string;
  created_at: Date | string;
  online: boolean;
}

/** Whether device `device` is one of the entity's. */
export async function isDeviceOf(db: Db, entity: string, device: string): Promise<boolean> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`select name from devices where name = ${device} and entity = ${entity}`),
  );
  return rows.length > 0;
}

/** How often the row is read again while a device that is connecting is awaited. */
const POLL_MS = 20;

/**
 * The device's row with its presence as fresh as this instance can know it: what telemetry holds
 * of it is written first (the embedded broker notes a subscription before the device has its
 * SUBACK, so a device that can receive commands reads as online). A device not yet online gets
 * `graceMs` more, polled: on an external broker the server hears of it only from the report after
 * its subscription, which may still be on its way, or in another instance's batch.
 */
export async function readPresence(
  db: Db,
  telemetry: Pick<TelemetryBatcher, 'settle'>,
  entity: string,
  device: string,
  graceMs: number,
): Promise<DevicePresence | undefined> {
  const until = Date.now() + graceMs;
  for (;;) {
    await telemetry.settle(device);
    const [row] = rowsOf<DevicePresence>(
      await db.execute(sql`
        select name, state_current, updated_at, created_at, online from devices where name = ${device} and entity = ${entity}`),
    );
    if (!row || row.online || Date.now() >= until) return row;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
