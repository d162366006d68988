// The simulator's command line: a fleet of virtual devices from a credentials file or flags, a
// status line now and then, and a clean goodbye from every device on Ctrl-C.
import fs from 'node:fs';
import { USAGE, parseCli, parseCredentials } from './cli-args.ts';
import { type FleetStats, startFleet } from './fleet.ts';

let cli: ReturnType<typeof parseCli>;
try {
  cli = parseCli(process.argv.slice(2), process.env);
} catch (err) {
  console.error(`${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (cli === 'help') {
  console.log(USAGE);
  process.exit(0);
}

const devices =
  'file' in cli.devices ? parseCredentials(JSON.parse(fs.readFileSync(cli.devices.file, 'utf8'))) : cli.devices.list;
const fleet = await startFleet({ ...cli.fleet, devices });
console.log(
  `[simulator] ${devices.length} devices → ${cli.fleet.url} (seed ${cli.fleet.seed}, ×${cli.fleet.timeScale})`,
);

// Each distinct problem once, so 50 devices refused by the broker print one line, not 50 a retry.
const reported = new Set<string>();
for (const d of fleet.devices) {
  d.on('problem', (err) => {
    if (reported.has(err.message)) return;
    reported.add(err.message);
    console.error(`[simulator] ${d.id}: ${err.message}`);
  });
}

const line = (s: FleetStats) =>
  `[simulator] ${s.online}/${s.devices} online, ${s.away} away · ${s.sent} messages sent · ` +
  `${s.commands} commands, ${s.answered} answered`;
const status =
  cli.statusEveryS > 0 ? setInterval(() => console.log(line(fleet.stats())), cli.statusEveryS * 1000) : undefined;

let stopping = false;
async function shutdown() {
  if (stopping) process.exit(1); // a second Ctrl-C: leave at once
  stopping = true;
  clearInterval(status);
  await fleet.stop();
  console.log(line(fleet.stats()));
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
