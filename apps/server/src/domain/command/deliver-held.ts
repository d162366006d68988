import { sql } from 'drizzle-orm';
import { commandMessage, topics, type DevicePayload } from '@fleet/shared/protocol';
import { rowsOf } from '../../db/raw-sql.ts';
import type { CommandContext } from './command-context.ts';
import { anyOf } from './command-parts.ts';
import type { CommandRow } from './present-command.ts';

/** A device heard from: its name and entity. */
export interface Awake {
  name: string;
  entity: string;
}

/** Devices that woke: their held commands go out now, each claimed by exactly one instance. */
export async function deliverHeld(ctx: Pick<CommandContext, 'db' | 'link' | 'onError'>, woken: Awake[]): Promise<void> {
  if (woken.length === 0) return;
  const rows = rowsOf<CommandRow>(
    await ctx.db.execute(sql`
      update commands set state = 'sent', sent_at = now()
      where state = 'queued' and expires_at > now() and device = ${anyOf(woken.map((w) => w.name))}
      returning *`),
  );
  rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
  for (const row of rows) {
    const message = commandMessage(
      row.id,
      { type: row.type, ...row.payload } as DevicePayload,
      new Date(row.expires_at),
    );
    ctx.link.publish(topics.deviceCommands(row.entity, row.device), message).catch((err) => {
      ctx.onError(err, 'publishing a held command');
    });
  }
}
