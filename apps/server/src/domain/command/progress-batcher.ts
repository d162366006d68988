import { sql } from 'drizzle-orm';
import type { DfuEvent } from '@fleet/shared/protocol';
import type { Db } from '../../db/client.ts';
import { recordset } from '../../db/raw-sql.ts';
import { commands } from '../../db/schema.ts';
import { FlushLoop, takeAll } from '../../lib/batching/flush-loop.ts';

/** How a device's current_download starts while a firmware update runs (cleared when it settles). */
export const DOWNLOAD_PREFIX = 'Firmware ';

/** The latest progress of one command on one device. */
interface Progress {
  id: string;
  device: string;
  phase: string;
  progress: number;
}

/**
 * Progress of long work (firmware updates) written in batches: the latest phase and percentage
 * of each command since the last flush, one UPDATE for all of them. A fleet-wide update sends
 * several events per device; one statement per event would queue thousands of writes.
 */
export class ProgressBatcher {
  private readonly pending = new Map<string, Progress>();
  /** Its flush loop (the metrics read its depth and time its writes). */
  readonly loop: FlushLoop<Progress[]>;

  constructor(
    private readonly db: Db,
    onError: (err: unknown) => void,
    intervalMs = 100,
  ) {
    this.loop = new FlushLoop({
      take: 'when-called',
      intervalMs,
      collect: () => takeAll(this.pending),
      write: (batch) => this.write(batch),
      onError,
    });
  }

  /** Records a device's progress event; later events of the same command win. */
  add(device: string, event: DfuEvent): void {
    this.pending.set(`${event.id}/${device}`, { id: event.id, device, phase: event.phase, progress: event.progress });
    this.loop.added(this.pending.size);
  }

  /** Writes what is pending (waits for a flush in progress first). */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  private async write(batch: Progress[]): Promise<void> {
    // The command row keeps the progress for the history; the device's current_download
    // says it in words for the device list and screen until the update settles.
    await this.db.execute(sql`
      with v as (
        select * from ${recordset(batch, { table: commands, columns: ['id', 'device', 'progress'], extra: { phase: 'text' } })}),
      c as (
        update commands c set progress_phase = v.phase, progress = v.progress from v
        where c.id = v.id and c.device = v.device and c.type = 'dfu' and c.state = 'sent'
        returning c.device, c.payload->>'version' as version, v.phase, v.progress)
      update devices d set current_download = ${DOWNLOAD_PREFIX} || c.version || ': ' || c.phase || ' ' || c.progress || '%'
      from c where d.name = c.device`);
  }
}
