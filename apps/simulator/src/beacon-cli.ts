// The beacon gateways of `npm run demo`: reads the ward from the demo's fleet file and runs its
// gateways over MQTT until Ctrl-C. Usage: beacon-cli.js <fleet.json> <mqtt-url>
import fs from 'node:fs';
import { startGateways } from './beacon-gateway.ts';
import type { BeaconWardSetup } from './demo-beacons.ts';

const [file, url] = process.argv.slice(2);
if (!file || !url) {
  console.error('usage: beacon-cli.js <fleet.json> <mqtt-url>');
  process.exit(2);
}
const { ward } = JSON.parse(fs.readFileSync(file, 'utf8')) as { ward: BeaconWardSetup };
const reported = new Set<string>();
const gateways = await startGateways({
  gateways: ward.gateways,
  beacons: ward.beacons,
  url,
  onReminder: (gw, r) =>
    console.log(`[gateways] ${gw}: reminder for ${r.payload.patient}: ${r.payload.medications.join(', ')}`),
  onProblem: (gw, err) => {
    if (reported.has(err.message)) return;
    reported.add(err.message);
    console.error(`[gateways] ${gw}: ${err.message}`);
  },
});
console.log(`[gateways] ${ward.gateways.length} beacon gateways, ${ward.beacons.length} patients' beacons → ${url}`);
const status = setInterval(() => {
  const s = gateways.stats();
  console.log(
    `[gateways] ${s.connected}/${s.gateways} connected · ${s.sightings} sightings · ${s.reminders} reminders`,
  );
}, 30_000);
let stopping = false;
async function shutdown() {
  if (stopping) process.exit(1);
  stopping = true;
  clearInterval(status);
  await gateways.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
