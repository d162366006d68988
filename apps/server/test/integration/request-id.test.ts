import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { ADMIN, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';
import { autoReply, connectDevice, eventually, randomDeviceId as hex, registerDevice } from '../helpers/devices.ts';

/** Every JSON line the server logged. */
const lines: Array<Record<string, unknown>> = [];
let s: TestServer;
let root = '';
const entity = `rid_${hex().slice(0, 6)}`;

beforeAll(async () => {
  s = await startServer(
    { LOG_LEVEL: 'info' },
    { logger: true, logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  );
  root = (await signIn(s, ADMIN.name, ADMIN.password)).access_token;
  await s.request('POST', '/api/v1/tenant', {
    token: root,
    body: { document: { name: { name: entity, description: '' } } },
  });
});
afterAll(async () => s?.close());

describe('a request id', () => {
  it('follows a command from the HTTP call to the device reply settling it and into both audit entries', async () => {
    const name = hex();
    const device = await connectDevice(s, entity, await registerDevice(s, root, entity, name));
    autoReply(device);
    await eventually(async () => {
      const res = await s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token: root });
      expect(res.body.data.online).toBe(true);
    });
    const sent = await s.request('POST', `/api/v1/tenant/${entity}/mqtt/general/${name}`, {
      token: root,
      body: { payload: { type: 'vibrate', song: 'V10' } },
    });
    expect(sent.status).toBe(200);
    const id = sent.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    // The HTTP call's lines and the settle's line share it (the settle is logged where the reply arrived).
    const settled = await eventually(async () => {
      const line = lines.find((l) => l.msg === 'command settled' && l.reqId === id);
      expect(line).toBeDefined();
      return line!;
    });
    expect(settled).toMatchObject({ command: sent.body.data.id, device: name, state: 'succeeded' });
    // One line for the request itself (docs/operations.md), with what Fastify's two lines carried.
    const own = lines.filter((l) => l.reqId === id);
    expect(own.map((l) => l.msg).sort()).toEqual(['command settled', 'request completed']);
    expect(own.find((l) => l.msg === 'request completed')).toMatchObject({
      req: { method: 'POST', url: `/api/v1/tenant/${entity}/mqtt/general/${name}` },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });

    const entries = rowsOf<{ details: { phase: string; request_id?: string } }>(
      await s.app.db.execute(sql`select details from audit_entries
        where entity = ${entity} and target_name = ${name} and action = 'command.send' order by id`),
    );
    expect(entries.map((e) => [e.details.phase, e.details.request_id])).toEqual([
      ['sent', id],
      ['settled', id],
    ]);
    device.client.end(true);
  });

  it('and metrics are off on a server without METRICS_TOKEN or METRICS_PORT', async () => {
    const res = await s.request('GET', '/metrics', { headers: { accept: 'text/plain' } });
    expect(res.status).toBe(404);
    expect(res.body.errorInfo.code).toBe(404);
    expect(s.app.metrics).toBeNull();
  });

  it("is the server's own unless a trusted proxy sends one", async () => {
    const res = await s.request('GET', '/healthz', { headers: { 'x-request-id': 'forged-id-0001' } });
    expect(res.headers.get('x-request-id')).not.toBe('forged-id-0001');
  });
});
