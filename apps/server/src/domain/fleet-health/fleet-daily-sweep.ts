import { sql } from 'drizzle-orm';
import { tryTransactionLock } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-sql.ts';
import {
  DAY_MS,
  dailyActivity,
  dayAfterLastSnapshot,
  dayIso,
  emptyDay,
  existedByDay,
  utcDay,
} from './fleet-daily-queries.ts';
import { fleetNow } from './fleet-now.ts';

/** Days a first sweep fills back (a trend's longest window), from what the tables still hold. */
export const FLEET_DAILY_BACKFILL_DAYS = 30;
/** Complete days whose activity is written again by each sweep: their commands and sessions still settle. */
export const FLEET_DAILY_SETTLE_DAYS = 2;
/** One snapshot sweep at a time across instances (a transaction-scoped advisory lock). */
const SNAPSHOT_LOCK = 0x7e1e_da11;

/**
 * The daily fleet snapshot's upkeep, run after the telemetry sweep (its hourly roll-up is what
 * presence reads): writes a row per entity for every complete UTC day since the newest snapshot
 * (the last 30 on a first run), and writes the last two complete days' activity again as their
 * commands and sessions settle. A day's state of the fleet (totals, battery, states, firmware) is
 * read only when the sweep writes the day within a day of its end; a later one leaves it null.
 * Rows older than `keepDays` go. All in one transaction under an advisory lock: another instance
 * holding it means the work is being done, and this one skips it. Answers the days written.
 */
export async function sweepFleetDaily(db: Db, keepDays: number, now = new Date()): Promise<number> {
  const today = utcDay(now.getTime());
  const next = await dayAfterLastSnapshot(db);
  const fresh = next === null ? today - FLEET_DAILY_BACKFILL_DAYS * DAY_MS : Math.min(Date.parse(next), today);
  const from = Math.min(fresh, today - FLEET_DAILY_SETTLE_DAYS * DAY_MS);
  let written = 0;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    if (!(await tryTransactionLock(tx, SNAPSHOT_LOCK))) return;
    const entities = rowsOf<{ name: string }>(await tx.execute(sql`select name from entities order by name`));
    const activity = new Map(
      (await dailyActivity(tx, null, from, today, { serial: true })).map((a) => [`${a.entity}\n${a.day}`, a]),
    );
    const existed = fresh < today ? await existedByDay(tx, null, fresh) : () => 0;
    const yesterday = dayIso(today - DAY_MS);
    for (let day = from; day < today; day += DAY_MS) {
      const d = dayIso(day);
      for (const { name } of entities) {
        const a = activity.get(`${name}\n${d}`) ?? emptyDay(name, d);
        if (day >= fresh) {
          const state = d === yesterday ? await fleetNow(tx, name, now) : null;
          await tx.execute(sql`
            insert into fleet_daily (entity, day, taken_at, existed, online_day, heard_day, adoption, commands,
              firmware_updates, provisioning, total, online, unresponsive, never_seen, battery, states, firmware)
            values (${name}, ${d}::date, ${now.toISOString()}::timestamptz, ${existed(name, d)}, ${a.online_day},
              ${a.heard_day}, ${json(a.adoption)}, ${json(a.commands)}, ${json(a.firmware_updates)},
              ${json(a.provisioning)}, ${state?.devices.total ?? null}, ${state?.devices.online ?? null},
              ${state?.devices.unresponsive ?? null}, ${state?.devices.never_seen ?? null},
              ${state ? json(state.battery) : null}, ${state ? json(state.states) : null},
              ${state ? json(state.firmware) : null})
            on conflict (entity, day) do nothing`);
        } else {
          await tx.execute(sql`
            update fleet_daily set online_day = ${a.online_day}, heard_day = ${a.heard_day},
              adoption = ${json(a.adoption)}, commands = ${json(a.commands)},
              firmware_updates = ${json(a.firmware_updates)}, provisioning = ${json(a.provisioning)}
            where entity = ${name} and day = ${d}::date`);
        }
      }
      if (day >= fresh) written += 1;
    }
    await tx.execute(sql`delete from fleet_daily where day < ${dayIso(today - keepDays * DAY_MS)}::date`);
  });
  return written;
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
