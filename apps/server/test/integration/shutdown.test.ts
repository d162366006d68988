import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectDevice,
  eventually,
  randomDeviceId,
  registerDevice,
  startWithTwoEntities,
  type TestDevice,
} from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';

/**
 * A graceful shutdown answers every in-flight call: command calls waiting for a device that never
 * answers get 503 with a retry hint once the drain ends, a reply that arrives within the drain
 * still answers its call, and requests arriving meanwhile get 503, all in the errorInfo envelope.
 */
const DRAIN_MS = 1500;
const CALLS = 14;
let s: TestServer;
let closed: Promise<void> | undefined;
let root = '';
let ACME = '';
const open: TestDevice[] = [];

beforeAll(async () => {
  // A reply timeout far beyond the drain: only the shutdown can answer these calls in time.
  ({
    s,
    root,
    acme: ACME,
  } = await startWithTwoEntities({
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    COMMAND_REPLY_TIMEOUT_MS: '20000',
  }));
});
afterAll(async () => {
  await Promise.all(open.map((d) => d.close().catch(() => undefined)));
  await (closed ?? s?.close());
});

async function onlineDevice(): Promise<TestDevice> {
  const name = randomDeviceId();
  const device = await connectDevice(s, ACME, await registerDevice(s, root, ACME, name));
  open.push(device);
  await eventually(async () => {
    const res = await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: root });
    expect(res.body.data.online).toBe(true);
  });
  return device;
}

/** GET /healthz over one kept-alive connection (a new one once the server closed it). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function health() {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const { hostname, port } = new URL(s.url);
    http
      .get({ host: hostname, port, path: '/healthz', agent }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

describe('graceful shutdown', () => {
  it('answers every in-flight command call, and new requests, with 503 and a retry hint', async () => {
    const silent = await onlineDevice();
    const alsoSilent = await onlineDevice();
    const answering = await onlineDevice();
    const send = (name: string) =>
      s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/${name}`, {
        token: root,
        body: { payload: { type: 'vibrate', song: 'V10' } },
      });
    const calls = Array.from({ length: CALLS }, () => send(silent.name));
    calls.push(
      s.request('POST', `/api/v1/tenant/${ACME}/mqtt/general/devices`, {
        token: root,
        body: { devices: [silent.name, alsoSilent.name], payload: { type: 'vibrate', song: 'V10' } },
      }),
    );
    const answered = send(answering.name);
    // Every call is published and waiting for its device.
    await eventually(async () => expect(silent.received).toHaveLength(CALLS + 1));
    await eventually(async () => expect(alsoSilent.received).toHaveLength(1));
    const [command] = answering.received.length ? answering.received : [await answering.nextCommand()];
    expect((await health()).status).toBe(200);

    const started = Date.now();
    closed = s.close();
    // A request on the open connection once the shutdown began: 503 in the envelope.
    const refused = await eventually(async () => {
      const res = await health();
      expect(res.status).toBe(503);
      return res;
    });
    expect(refused.body.errorInfo).toMatchObject({ code: 503 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // A reply within the drain still answers its call.
    await answering.publish('reply', { id: command!.body.id, status: 'success' });
    const ok = await answered;
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'success' });

    // The calls whose device never answers: 503, each, once the drain ends.
    const answers = await Promise.all(calls);
    const took = Date.now() - started;
    for (const res of answers) {
      expect(res.status).toBe(503);
      expect(res.body.errorInfo).toMatchObject({ code: 503 });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(answers).toHaveLength(CALLS + 1);
    expect(took).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    expect(took).toBeLessThan(DRAIN_MS + 3000);
    await closed;
  });
});
