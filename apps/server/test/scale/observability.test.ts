import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/app.ts';
import { eventually, repliersOnline } from '../helpers/devices.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * Two API instances on one broker, database and Redis: each exports its own metrics, and a
 * command's request id reaches the log of whichever instance its reply came to.
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL || !process.env.MQTT_URL) {
  throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
}

const TOKEN = 'scale-metrics-token-0123456789';
const ENTITY = `obs_${randomBytes(3).toString('hex')}`;
const logs = { a: [] as Array<Record<string, unknown>>, b: [] as Array<Record<string, unknown>> };
const into = (lines: Array<Record<string, unknown>>) => ({ write: (l: string) => void lines.push(JSON.parse(l)) });
let a: TestServer;
let b: FastifyInstance;
let bUrl = '';
let token = '';

beforeAll(async () => {
  const env = {
    JWT_SECRET: 'scale-test-secret-shared-by-both-instances-0123',
    METRICS_TOKEN: TOKEN,
    LOG_LEVEL: 'info',
  };
  a = await startServer(env, { logger: true, logStream: into(logs.a) });
  b = await build(a.config, { logger: true, logStream: into(logs.b) });
  await b.listen({ port: 0, host: '127.0.0.1' });
  bUrl = `http://127.0.0.1:${(b.server.address() as { port: number }).port}`;
  token = (await signIn(a, ADMIN.name, ADMIN.password)).access_token;
  await a.request('POST', '/api/v1/tenant', { token, body: { document: { name: { name: ENTITY, description: '' } } } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const scrape = async (url: string) =>
  (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
const settledCount = (text: string) =>
  Number(/^fleet_commands_settled_total\{type="vibrate",state="succeeded"\} (\d+)$/m.exec(text)?.[1] ?? 0);

describe('observability across instances', () => {
  it("each instance counts what it settled, and logs a settle under the sending request's id", async () => {
    const { names, devices } = await repliersOnline(a, token, ENTITY, 4);
    // Every command is sent through b; about half the replies reach a (shared subscription).
    const sent = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const res = await fetch(`${bUrl}/api/v1/tenant/${ENTITY}/mqtt/general/${names[i % 4]}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ payload: { type: 'vibrate', song: 'V10' } }),
        });
        expect(res.status).toBe(200);
        return res.headers.get('x-request-id')!;
      }),
    );
    const settledOn = (id: string) =>
      (['a', 'b'] as const).filter((k) => logs[k].some((l) => l.msg === 'command settled' && l.reqId === id));
    await eventually(async () => {
      for (const id of sent) expect(settledOn(id)).toHaveLength(1);
    });
    // Some replies settled on the instance that did not send the command, under the sender's request id.
    expect(sent.filter((id) => settledOn(id)[0] === 'a').length).toBeGreaterThan(0);
    expect(sent.every((id) => logs.b.some((l) => l.reqId === id && l.msg === 'request completed'))).toBe(true);

    // Each instance exports its own count; together they are every command.
    const [onA, onB] = [settledCount(await scrape(a.url)), settledCount(await scrape(bUrl))];
    expect(onA).toBeGreaterThan(0);
    expect(onA + onB).toBe(16);
    expect(onA).toBe(sent.filter((id) => settledOn(id)[0] === 'a').length);
    await Promise.all(devices.map((d) => d.close()));
  });
});
