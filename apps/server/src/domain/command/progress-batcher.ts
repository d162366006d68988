import { sql } from 'drizzle-orm';
import type { DfuEvent } from '@fleet/shared/protocol';
import type { Db } from '../../db/client.ts';

/** How a device's current_download starts while a firmware update runs (cleared when it settles). */
export const DOWNLOAD_PREFIX = 'Firmware ';

/**
 * Progress of long work (firmware updates) written in batches: the latest phase and percentage
 * of each command since the last flush, one UPDATE for all of them. A fleet-wide update sends
 * several events per device; one statement per event would queue thousands of writes.
 */
export class ProgressBatcher {
  private pending = new Map<string, { id: string; device: string; phase: string; progress: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    private readonly intervalMs = 100,
  ) {}

  /** Records a device's progress event; later events of the same command win. */
  add(device: string, event: DfuEvent): void {
    this.pending.set(`${event.id}/${device}`, { id: event.id, device, phase: event.phase, progress: event.progress });
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Writes what is pending (waits for a flush in progress first). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        // The command row keeps the progress for the history; the device's current_download
        // says it in words for the device list and screen until the update settles.
        await this.db.execute(sql`
          with v as (
            select * from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
              as v(id uuid, device text, phase text, progress int)),
          c as (
            update commands c set progress_phase = v.phase, progress = v.progress from v
            where c.id = v.id and c.device = v.device and c.type = 'dfu' and c.state = 'sent'
            returning c.device, c.payload->>'version' as version, v.phase, v.progress)
          update devices d set current_download = ${DOWNLOAD_PREFIX} || c.version || ': ' || c.phase || ' ' || c.progress || '%'
          from c where d.name = c.device`);
      } catch (err) {
        this.onError(err);
      }
    });
    return this.flushing;
  }
}
