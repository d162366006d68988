import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { expect } from 'vitest';
import { topics } from '@fleet/shared/protocol';
import { ADMIN, startServer, type TestServer } from './server.ts';
import { sharedServer } from './shared-server.ts';
import { signIn } from './session.ts';

export interface Credentials {
  username: string;
  password: string;
}

export interface TestDevice {
  client: mqtt.MqttClient;
  name: string;
  entity: string;
  /** Messages on the device's subscriptions, in arrival order. */
  received: Array<{ topic: string; body: any }>;
  publish(kind: 'state' | 'reply' | 'events' | 'beacon', body: unknown): Promise<void>;
  /** Resolves with the next command (waits up to `ms`). */
  nextCommand(ms?: number): Promise<{ topic: string; body: any }>;
  close(): Promise<void>;
}

/** Registers a device through the API and answers its credentials. */
export async function registerDevice(
  s: Pick<TestServer, 'request'>,
  token: string,
  entity: string,
  name: string,
): Promise<Credentials> {
  const res = await s.request('POST', `/api/v1/tenant/${entity}/device`, {
    token,
    body: { document: { name, description: 'test unit', manufacturing_type: 'CC1' } },
  });
  if (res.status !== 201) throw new Error(`device create answered ${res.status}: ${res.text}`);
  return res.body.data.mqtt;
}

/** Connects like firmware: MQTT 3.1.1, client id = device id; rejects with the broker's refusal. */
export function connectRaw(s: Pick<TestServer, 'mqttUrl'>, creds: Partial<Credentials>, clientId = creds.username) {
  return mqtt.connectAsync(s.mqttUrl, {
    protocolVersion: 4,
    clientId,
    username: creds.username,
    password: creds.password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    clean: true,
  });
}

/** A connected device, subscribed to its own and its entity's command topics, online. */
export async function connectDevice(
  s: Pick<TestServer, 'mqttUrl'>,
  entity: string,
  creds: Credentials,
  announce = true,
): Promise<TestDevice> {
  const client = await connectRaw(s, creds);
  const name = creds.username;
  const received: TestDevice['received'] = [];
  const waiters: Array<(m: { topic: string; body: any }) => void> = [];
  client.on('message', (topic, payload) => {
    const message = { topic, body: JSON.parse(payload.toString()) };
    received.push(message);
    waiters.shift()?.(message);
  });
  await client.subscribeAsync([topics.deviceCommands(entity, name), topics.entityCommands(entity)], { qos: 1 });
  const device: TestDevice = {
    client,
    name,
    entity,
    received,
    async publish(kind, body) {
      await client.publishAsync(
        `fleet/${entity}/${name}/${kind}`,
        typeof body === 'string' ? body : JSON.stringify(body),
        {
          qos: 1,
        },
      );
    },
    nextCommand(ms = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no command for ${name} within ${ms} ms`)), ms);
        waiters.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      });
    },
    close: () => client.endAsync(),
  };
  if (announce) await device.publish('state', { online: true });
  return device;
}

/** Answers every command with `reply(command)` (success by default). */
export function autoReply(device: TestDevice, reply: (cmd: any) => object = () => ({ status: 'success' })) {
  device.client.on('message', (topic, payload) => {
    if (!topic.endsWith('/cmd')) return;
    const cmd = JSON.parse(payload.toString());
    void device.publish('reply', { id: cmd.id, ...reply(cmd) });
  });
}

/**
 * Polls until `check` passes (or throws its last error after `ms`). The default budget is for a
 * loaded box: a presence or state write batched behind the database's other work was seen to take
 * over 5 s in CI beside other runs; a passing check returns as soon as it passes.
 */
export async function eventually<T>(check: () => Promise<T>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A random device id: 12 lower-case hex digits. */
export const randomDeviceId = () => randomBytes(6).toString('hex');

/** `count` new devices of `entity`, connected and answering every command, once the API lists them online. */
export async function repliersOnline(s: TestServer, token: string, entity: string, count: number) {
  const names = Array.from({ length: count }, randomDeviceId);
  const devices = await Promise.all(
    names.map(async (name) => connectDevice(s, entity, await registerDevice(s, token, entity, name))),
  );
  devices.forEach((d) => autoReply(d));
  await eventually(async () => {
    const list = await s.request('GET', `/api/v1/tenant/${entity}/device?limit=${count}`, { token });
    expect(list.body.data.filter((d: { online: boolean }) => d.online)).toHaveLength(count);
  });
  return { names, devices };
}

/**
 * A server with two entities, named uniquely for this run: in scale mode every test file shares
 * one broker, so names must not meet on its topics. Answers the superadmin's token too. With
 * `shared`, the worker's server for `env` (helpers/shared-server.ts), whose other files' data the
 * caller must never read.
 */
export async function startWithTwoEntities(env: Record<string, string> = {}, opts: { shared?: boolean } = {}) {
  const tag = randomBytes(3).toString('hex');
  const [acme, globex] = [`acme_${tag}`, `globex_${tag}`];
  const s = await (opts.shared ? sharedServer : startServer)(env);
  const root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  for (const name of [acme, globex]) {
    await s.request('POST', '/api/v1/tenant', { token: root, body: { document: { name: { name, description: '' } } } });
  }
  return { s, root, acme, globex, tag };
}
