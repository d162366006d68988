import { provisionDemoOrganisation } from './demo-org.ts';
import { provisionDemoDataviews } from './demo-dataviews.ts';
import type { DeviceCredentials } from './fleet.ts';
import { provisionDemoFiles } from './demo-files.ts';
import { provisionDemoFirmware } from './demo-firmware.ts';

/**
 * The demo fleet (`npm run demo`, and the end-to-end test that checks it appears): an entity with
 * an admin and an operator, 50 devices of which the last 3 never connect, and sites, kiosks and
 * groups holding them (demo-org.ts). Set up through the
 * HTTP API like an operator would, and idempotent: a second run reuses what exists and gives the
 * devices fresh secrets.
 */
export const DEMO_ENTITY = 'demo';
export const DEMO_ACCOUNTS = [
  { name: 'demo_admin', password: 'demo-admin', subtype: 'admin', access: ['all'] },
  { name: 'demo_operator', password: 'demo-operator', subtype: 'operator', access: [] as string[] },
] as const;
export const DEMO_DEVICE_COUNT = 50;
/** Registered but never connected: the console shows them unresponsive 20 minutes after registration. */
export const DEMO_SILENT_DEVICES = 3;
/** Espressif's MAC prefix and a counter: 12 lower-case hex digits, the same every run. */
export const demoDeviceId = (i: number) => `240ac4de${i.toString(16).padStart(4, '0')}`;

export interface DemoFleet {
  entity: string;
  accounts: Array<{ name: string; password: string; subtype: string }>;
  /** Credentials of the devices to simulate. */
  simulated: DeviceCredentials[];
  /** Ids of the devices that never connect. */
  silent: string[];
}

export class DemoSetupError extends Error {}

/** The API's answers, read loosely: this is a setup script, not a client library. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

export interface Api {
  baseUrl: string;
  admin: { name: string; password: string };
}

/** Creates (or refreshes) the demo entity, accounts and devices; answers the devices' credentials. */
export async function provisionDemoFleet(api: Api, count = DEMO_DEVICE_COUNT): Promise<DemoFleet> {
  const signIn = await call(api, 'POST', 'login', null, api.admin, [200, 401]);
  if (signIn.status === 401) {
    throw new DemoSetupError(`The superadmin ${api.admin.name} has another password in this data directory.`);
  }
  const token = signIn.body.access_token as string;
  await call(
    api,
    'POST',
    'tenant',
    token,
    { document: { name: { name: DEMO_ENTITY, description: 'Demo fleet' } } },
    [201, 409],
  );
  for (const account of DEMO_ACCOUNTS) await ensureAccount(api, token, account);
  await provisionDemoDataviews(
    (m, p, body, ok) => call(api, m, p, token, body, ok),
    DEMO_ENTITY,
    DEMO_ACCOUNTS[0].name,
  );
  const credentials = await provisionDemoDevices(api, token, count);
  await provisionDemoOrganisation(
    (method, p, body, ok) => call(api, method, p, token, body, ok),
    DEMO_ENTITY,
    credentials.map((c) => c.name),
  );
  // After the groups: one of them gets a newer image than the entity's.
  await provisionDemoFirmware(api.baseUrl, token, DEMO_ENTITY).catch((err: Error) => {
    throw new DemoSetupError(err.message);
  });
  // Files for Provision: at entity level and on the first group.
  await provisionDemoFiles(api.baseUrl, token, DEMO_ENTITY).catch((err: Error) => {
    throw new DemoSetupError(err.message);
  });
  const simulated = credentials.slice(0, count - DEMO_SILENT_DEVICES);
  return {
    entity: DEMO_ENTITY,
    accounts: DEMO_ACCOUNTS.map(({ name, password, subtype }) => ({ name, password, subtype })),
    simulated,
    silent: credentials.slice(simulated.length).map((c) => c.name),
  };
}

export async function call(api: Api, method: string, p: string, token: string | null, body: unknown, ok = [200, 201]) {
  const res = await fetch(`${api.baseUrl}/api/v1/${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => null)) as Loose;
  if (!ok.includes(res.status)) {
    throw new DemoSetupError(
      `${method} /api/v1/${p} answered ${res.status}: ${json?.errorInfo?.userMessage ?? 'no message'}`,
    );
  }
  return { status: res.status, body: json };
}

/** Creates the account, or gives an existing one the demo's password and role, so what is printed is true. */
async function ensureAccount(api: Api, token: string, account: (typeof DEMO_ACCOUNTS)[number]) {
  const { name, password, subtype, access } = account;
  const document = { name, email: `${name}@example.com`, password, subtype, entity: DEMO_ENTITY, access };
  const res = await call(api, 'POST', `tenant/${DEMO_ENTITY}/account`, token, { document }, [201, 409]);
  if (res.status === 409) {
    await call(api, 'PUT', `account/${name}`, token, {
      operator: { $set: { password, subtype, entity: DEMO_ENTITY, access } },
    });
  }
}

/** The demo entity's first `count` devices (it exists), ten at a time: registered, or their secrets regenerated. */
export async function provisionDemoDevices(api: Api, token: string, count: number): Promise<DeviceCredentials[]> {
  const credentials: DeviceCredentials[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, k) => deviceWithSecret(api, token, i + k));
    credentials.push(...(await Promise.all(batch)));
  }
  return credentials;
}

/** Registers device `i`, or regenerates the secret of the one registered by an earlier run. */
async function deviceWithSecret(api: Api, token: string, i: number): Promise<DeviceCredentials> {
  const name = demoDeviceId(i);
  // Looked up first, so a second run does not leave a failed device.create per device in the audit log.
  const existing = await call(api, 'GET', `tenant/${DEMO_ENTITY}/device/${name}`, token, undefined, [200, 404]);
  if (existing.status === 404) {
    const document = { name, description: `Demo dispenser ${i + 1}`, manufacturing_type: i % 4 === 0 ? 'CC2' : 'CC1' };
    const created = await call(api, 'POST', `tenant/${DEMO_ENTITY}/device`, token, { document }, [201, 409]);
    if (created.status === 201) return { name, entity: DEMO_ENTITY, password: created.body.data.mqtt.password };
  }
  const renewed = await call(api, 'POST', `tenant/${DEMO_ENTITY}/device/${name}/credentials`, token, undefined);
  return { name, entity: DEMO_ENTITY, password: renewed.body.data.password };
}
