import { sql } from 'drizzle-orm';
import type { SettleHandler } from '../command/settle-handlers.ts';
import { DOWNLOAD_PREFIX } from '../command/progress-batcher.ts';

/**
 * A firmware update settled: it succeeds only when the device comes back running the version it
 * was sent (then its progress is 100), and the device's current download is cleared either way.
 */
export const onDfuSettled: SettleHandler = {
  types: ['dfu'],
  completesProgress: true,
  refuseSuccess(reply) {
    const reported = typeof reply.data?.fw_version === 'string' ? reply.data.fw_version : null;
    return {
      when: sql`payload->>'version' is distinct from ${reported}::text`,
      error: sql`'The device reported version ' || coalesce(${reported}::text, '(none)') || ' instead of ' || (payload->>'version')`,
    };
  },
  async settledAll({ db, rows }) {
    const names = [...new Set(rows.map((r) => r.device))];
    await db.execute(sql`
      update devices set current_download = null
      where name in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb))
        and current_download like ${`${DOWNLOAD_PREFIX}%`}`);
  },
};
