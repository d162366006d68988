import { sql } from 'drizzle-orm';
import { connectDevice, randomDeviceId, registerDevice, type TestDevice } from './devices.ts';
import type { TestServer } from './server.ts';

/** A connected device of `entity`, registered by `token`. */
export async function alertDevice(s: TestServer, token: string, entity: string): Promise<TestDevice> {
  return connectDevice(s, entity, await registerDevice(s, token, entity, randomDeviceId()));
}

/** Waits until what the device said is written and evaluated against the rules. */
export async function evaluated(s: { app: TestServer['app'] }): Promise<void> {
  await s.app.devices.telemetry.flush();
  await s.app.alerts.evaluator.flush();
}

/** Publishes a state report and waits for its evaluation. */
export async function report(s: TestServer, device: TestDevice, body: object): Promise<void> {
  await device.publish('state', body);
  // The broker hands the message over asynchronously: wait for it to reach the batcher.
  const before = s.app.devices.telemetry.counts.merged;
  for (let i = 0; i < 100 && s.app.devices.telemetry.counts.merged === before; i++)
    await new Promise((r) => setTimeout(r, 20));
  await evaluated(s);
}

/** The device's last sign of life, moved `ms` into the past (a silent device without waiting). */
export async function backdate(s: TestServer, device: string, ms: number): Promise<void> {
  await s.app.db.execute(
    sql`update devices set updated_at = now() - make_interval(secs => ${ms / 1000}) where name = ${device}`,
  );
}

/** The entity's alerts of a device, as the API lists them. */
export async function alertsOf(s: Pick<TestServer, 'request'>, token: string, entity: string, device: string) {
  const res = await s.request('GET', `/api/v1/tenant/${entity}/alerts?device=${device}`, { token });
  if (res.status !== 200) throw new Error(`alerts answered ${res.status}: ${res.text}`);
  return res.body.data as Array<Record<string, any>>;
}

/** `seconds` from now, for the sweep's injected clock. */
export const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

/** Creates a rule in the entity (201 expected); answers it. */
export async function createRule(s: Pick<TestServer, 'request'>, token: string, entity: string, document: object) {
  const res = await s.request('POST', `/api/v1/tenant/${entity}/alert-rules`, { token, body: { document } });
  if (res.status !== 201) throw new Error(`alert-rules answered ${res.status}: ${res.text}`);
  return res.body.data as Record<string, any>;
}

/** The alerts of one rule among a device's (the API lists them newest first). */
export const ofRule = (list: Array<Record<string, any>>, rule: string) => list.filter((a) => a.rule_name === rule);
