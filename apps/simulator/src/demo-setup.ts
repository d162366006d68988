// `npm run demo`'s setup step: provisions the demo fleet through the API at DEMO_API_URL and writes
// the credentials file the simulator then reads. Exit code 1 with one readable line on failure.
import fs from 'node:fs';
import { provisionBeaconWard } from './demo-beacons.ts';
import { DemoSetupError, provisionDemoFleet } from './demo-fleet.ts';

const { DEMO_API_URL, ADMIN_USERNAME = 'admin', ADMIN_PASSWORD = '', DEMO_OUT } = process.env;
if (!DEMO_API_URL || !DEMO_OUT) {
  console.error('demo-setup needs DEMO_API_URL and DEMO_OUT');
  process.exit(2);
}
try {
  const api = { baseUrl: DEMO_API_URL, admin: { name: ADMIN_USERNAME, password: ADMIN_PASSWORD } };
  const fleet = await provisionDemoFleet(api);
  const ward = await provisionBeaconWard(api);
  fs.writeFileSync(DEMO_OUT, `${JSON.stringify({ ...fleet, ward }, null, 2)}\n`, { mode: 0o600 });
} catch (err) {
  console.error(err instanceof DemoSetupError ? err.message : err);
  process.exit(1);
}
