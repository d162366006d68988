import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/raw-sql.ts';
import { outcomeEntriesOf, settlingWithEntries } from '../audit/command-outcomes.ts';
import { tellSettled, timeoutText, type CommandContext, type CommandOutcome } from './command-context.ts';
import { deliverHeld, type Awake } from './deliver-held.ts';
import { DOWNLOAD_PREFIX } from './progress-batcher.ts';

/**
 * The periodic sweep, on every instance (each statement is idempotent): held commands past
 * their expiry expire, unanswered ones time out (each with its audit entry, in the same statement),
 * and held ones of devices seen online go out.
 */
export async function sweepCommands(ctx: CommandContext): Promise<void> {
  const { db } = ctx;
  await db.execute(
    settlingWithEntries(
      sql`update commands set state = 'expired', error = 'Expired before the device woke'
        where state = 'queued' and expires_at <= now()`,
      'system',
    ),
  );
  const timedOut = rowsOf<CommandOutcome>(
    await db.execute(
      settlingWithEntries(
        sql`update commands set state = 'timed_out', error = ${timeoutText(ctx)}
        where state = 'sent' and type <> 'dfu' and sent_at < now() - make_interval(secs => ${(ctx.timeoutMs + 1000) / 1000})`,
        'system',
      ),
    ),
  );
  const lateDfu = rowsOf<CommandOutcome>(
    await db.execute(sql`
    with late as (
      update commands set state = 'timed_out',
        error = ${`The firmware update did not finish within ${Math.round(ctx.dfuTimeoutMs / 60_000)} minutes`}
      where state = 'sent' and type = 'dfu' and sent_at < now() - make_interval(secs => ${ctx.dfuTimeoutMs / 1000})
      returning *),
    logged as (${outcomeEntriesOf(sql`late`, 'system')}),
    cleared as (update devices set current_download = null
      where name in (select device from late) and current_download like ${`${DOWNLOAD_PREFIX}%`})
    select device, entity, type, state, error from late`),
  );
  tellSettled(ctx, [...timedOut, ...lateDfu]);
  const owed = rowsOf<Awake>(
    await db.execute(sql`
      select distinct d.name, d.entity from commands c join devices d on d.name = c.device
      where c.state = 'queued' and c.expires_at > now() and d.online`),
  );
  await deliverHeld(ctx, owed);
}
