// `npm run demo`'s rollouts (issue 28): six simulated CC1 devices of their own in the group
// Rollout_lab, a release they install and a release candidate that fails on them. The first
// rollout finishes; the second fails its canary and pauses by its error threshold. Runs until
// stopped (the six devices stay online); a second run reuses what exists and creates nothing new.
// Usage: node dist/demo-rollouts.js <demo-fleet.json> <mqtt-url>, with DEMO_API_URL and the admin's.
import fs from 'node:fs';
import { uploadDemoFirmware } from './demo-firmware.ts';
import { call, type Api } from './demo-fleet.ts';
import { SimulatedDevice } from './device.ts';

export const ROLLOUT_LAB = 'Rollout_lab';
const GOOD = { name: 'Spring release 1.8.0', version: '1.8.0' };
const BAD = { name: 'Release candidate 1.9.0-rc1', version: '1.9.0-rc1' };
const START_VERSION = '1.6.0';
const labDeviceId = (i: number) => `d0e0c0de${i.toString(16).padStart(4, '0')}`;

const [fleetFile, mqttUrl] = process.argv.slice(2);
const { DEMO_API_URL, ADMIN_USERNAME = 'admin', ADMIN_PASSWORD = '' } = process.env;
if (!fleetFile || !mqttUrl || !DEMO_API_URL) {
  console.error('usage: demo-rollouts <demo-fleet.json> <mqtt-url> (with DEMO_API_URL)');
  process.exit(2);
}
const { entity } = JSON.parse(fs.readFileSync(fleetFile, 'utf8')) as { entity: string };
const api: Api = { baseUrl: DEMO_API_URL, admin: { name: ADMIN_USERNAME, password: ADMIN_PASSWORD } };
const token = (await call(api, 'POST', 'login', null, api.admin)).body.access_token as string;
const tenant = (method: string, p: string, body?: unknown, ok?: number[]) =>
  call(api, method, `tenant/${entity}/${p}`, token, body, ok);

await tenant('POST', 'dispenser', { document: { name: ROLLOUT_LAB } }, [201, 409]);
// The images are the lab group's, so the rest of the fleet's Update Firmware is unchanged.
const lab = (await tenant('GET', `dispenser/${ROLLOUT_LAB}`)).body.data.id as string;
const devices: SimulatedDevice[] = [];
for (let i = 0; i < 6; i++) devices.push(await labDevice(labDeviceId(i)));
process.on('SIGTERM', () => void Promise.all(devices.map((d) => d.stop())).then(() => process.exit(0)));
process.on('SIGINT', () => void Promise.all(devices.map((d) => d.stop())).then(() => process.exit(0)));
await Promise.all(devices.map((d) => d.whenOnline()));

const existing = (await tenant('GET', 'rollouts')).body.data as Array<{ name: string }>;
if (!existing.some((r) => r.name === BAD.name)) {
  for (const version of [GOOD.version, BAD.version]) {
    const status = await uploadDemoFirmware(api.baseUrl, token, entity, {
      level: 'group',
      target: lab,
      version,
      device_type: 'CC1',
    });
    if (status !== 201 && status !== 409) throw new Error(`Uploading firmware ${version} answered ${status}`);
  }
  const firmware = (await tenant('GET', `firmware?level=group&group_id=${lab}`)).body.files as Array<{
    id: string;
    version: string;
    device_type: string;
  }>;
  const idOf = (version: string) => firmware.find((f) => f.version === version && f.device_type === 'CC1')!.id;
  if (!existing.some((r) => r.name === GOOD.name)) await runRollout(GOOD.name, idOf(GOOD.version), 'finished');
  await runRollout(BAD.name, idOf(BAD.version), 'paused');
}

/** Creates and starts a rollout over the lab: a canary of one, then half, then all; waits for `until`. */
async function runRollout(name: string, firmware_id: string, until: 'finished' | 'paused') {
  const body = {
    name,
    firmware_id,
    target: { kind: 'group', name: ROLLOUT_LAB },
    canary: 1,
    percents: [50, 100],
    report_timeout_s: 600,
  };
  const id = (await tenant('POST', 'rollouts', body)).body.data.id as string;
  await tenant('POST', `rollouts/${id}/start`, {});
  for (let i = 0; i < 240; i++) {
    const r = (await tenant('GET', `rollouts/${id}`)).body.data as { state: string; pause_reason: string | null };
    if (r.state === until) return console.log(`  Rollout  ${name}: ${r.pause_reason ?? r.state}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.error(`  Rollout  ${name} did not end ${until} within 2 minutes`);
}

/** A lab device: registered (or given a fresh secret), in the lab group, simulated; 1.9.0-rc1 does not run on it. */
async function labDevice(name: string): Promise<SimulatedDevice> {
  const found = await tenant('GET', `device/${name}`, undefined, [200, 404]);
  let secret: string;
  if (found.status === 404) {
    const document = { name, description: 'Rollout lab', manufacturing_type: 'CC1' };
    secret = (await tenant('POST', 'device', { document }, [201])).body.data.mqtt.password as string;
    await tenant('POST', `dispenser/${ROLLOUT_LAB}/put/${name}`);
  } else secret = (await tenant('POST', `device/${name}/credentials`)).body.data.password as string;
  const fwVersion = (found.status === 200 && (found.body.data.fw_version as string | null)) || START_VERSION;
  const device = new SimulatedDevice({
    id: name,
    entity,
    secret,
    url: mqttUrl!,
    timeScale: 20,
    reportEveryS: 60,
    sleeps: false,
    badImages: [BAD.version],
    status: { state: 'WAITING', fwVersion },
  });
  device.start();
  return device;
}
