import { BEACON_DEFAULT_DOSE_TIME } from '@fleet/shared/beacon-constants';
import { DEMO_ENTITY, call as apiCall, type Api } from './demo-fleet.ts';
import type { DeviceCredentials } from './fleet.ts';

/**
 * The beacon demo's ward (`npm run demo`, and the end-to-end test of the beacon screen): four
 * gateways in rooms 101–104 and six patients with beacons and medication times, one of them due
 * now so that reminders are sent while the demo runs. Set up through the HTTP API; idempotent.
 */
export const DEMO_ROOMS = ['101', '102', '103', '104'] as const;
export const demoGatewayId = (i: number) => `240ac4ee${i.toString(16).padStart(4, '0')}`;
export const demoBeaconMac = (i: number) => `c3a1b2d4${i.toString(16).padStart(4, '0')}`;

const PATIENTS = [
  ['Ada Lovelace', [['Metformin', '500 mg']]],
  [
    'Alan Turing',
    [
      ['Lisinopril', '10 mg', '09:00'],
      ['Aspirin', '100 mg', '21:00'],
    ],
  ],
  ['Grace Hopper', [['Atorvastatin', '20 mg', '20:00']]],
  ['Edsger Dijkstra', [['Levothyroxine', '50 µg', '07:00']]],
  ['Barbara Liskov', [['Omeprazole', '20 mg']]],
  [
    'Donald Knuth',
    [
      ['Amlodipine', '5 mg', '12:00'],
      ['Vitamin D', '1000 IU'],
    ],
  ],
] as const;
/** How many patients wear a beacon in the demo ward. */
export const DEMO_PATIENT_COUNT = PATIENTS.length;

export type GatewayCredentials = DeviceCredentials & { room: string };

export interface BeaconWardSetup {
  gateways: GatewayCredentials[];
  beacons: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');
const timeNow = (d = new Date()) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

/**
 * Registers (or re-keys) the gateways in the demo entity (provisionDemoFleet made it) and writes
 * the patients' configurations; the first patient's dose is due now.
 */
export async function provisionBeaconWard(api: Api, entity = DEMO_ENTITY): Promise<BeaconWardSetup> {
  const token = (await apiCall(api, 'POST', 'login', null, api.admin)).body.access_token as string;
  const call = (method: string, p: string, body?: unknown, ok?: number[]) => apiCall(api, method, p, token, body, ok);
  const gateways: GatewayCredentials[] = [];
  for (const [i, room] of DEMO_ROOMS.entries()) {
    const name = demoGatewayId(i);
    const document = { name, description: `Beacon gateway, room ${room}`, manufacturing_type: 'CC2' };
    const created = await call('POST', `tenant/${entity}/device`, { document }, [201, 409]);
    const password =
      created.status === 201
        ? created.body.data.mqtt.password
        : (await call('POST', `tenant/${entity}/device/${name}/credentials`)).body.data.password;
    gateways.push({ name, entity, password, room });
  }
  const existing = (await call('GET', `tenant/${entity}/beacon-configs`)).body.data.beacons as Array<{
    id: string;
    beacon_mac: string;
  }>;
  const beacons: string[] = [];
  for (const [i, [patient, meds]] of PATIENTS.entries()) {
    const mac = demoBeaconMac(i);
    beacons.push(mac);
    const form = {
      patient_name: patient,
      room_number: DEMO_ROOMS[i % DEMO_ROOMS.length],
      medications: meds.map(([name, dosage, time]) => ({
        name,
        dosage,
        time: i === 0 ? timeNow() : (time ?? BEACON_DEFAULT_DOSE_TIME),
      })),
      rssi_threshold: -75,
      active: true,
      notes: i === 0 ? 'Dose due at the start of the demo: watch the reminder go out' : '',
    };
    const known = existing.find((b) => b.beacon_mac === mac);
    if (known) await call('PUT', `tenant/${entity}/beacon-configs/${known.id}`, form);
    else await call('POST', `tenant/${entity}/beacon-configs`, { ...form, beacon_mac: mac }, [201]);
  }
  return { gateways, beacons };
}
