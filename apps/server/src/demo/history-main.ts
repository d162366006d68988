import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { backfillDemoHistory } from '../domain/telemetry/demo-history.ts';

/**
 * `npm run demo`'s history step (scripts/demo.mjs), run while the server is stopped (PGlite is
 * one process's): 30 days of telemetry for the dispensers of the demo fleet file given as the
 * argument (written by apps/simulator's demo-setup) and for the last never-connecting one, dead
 * since last week; the other never-connecting devices get none. Adds nothing to devices that already have their past.
 */
const file = process.argv[2];
if (!file) {
  console.error('usage: history.js <demo-fleet.json>');
  process.exit(2);
}
const fleet = JSON.parse(fs.readFileSync(file, 'utf8')) as {
  entity: string;
  simulated: Array<{ name: string }>;
  silent: string[];
};
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  // The other never-connecting devices stay never seen: no past is made up for them.
  const dead = fleet.silent.at(-1);
  const devices = [...fleet.simulated.map((d) => d.name), ...(dead ? [dead] : [])];
  const written = await backfillDemoHistory(
    database.db,
    { entity: fleet.entity, devices, dead: dead ?? '' },
    { rawDays: config.TELEMETRY_RAW_DAYS, hourlyDays: config.TELEMETRY_HOURLY_DAYS },
  );
  if (written > 0) console.log(`  History   ${written} telemetry points over 30 days for ${devices.length} devices`);
} finally {
  await database.close();
}
