import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoReply, connectDevice, eventually, registerDevice, repliersOnline } from '../helpers/devices.ts';
import { ADMIN, startPeer, startServer, type TestServer } from '../helpers/server.ts';
import { signIn } from '../helpers/session.ts';

/**
 * Two API instances behind one external broker: each device message reaches one instance
 * (shared subscription), so a reply often lands on the instance that did not send the command.
 */
if (!process.env.DATABASE_URL || !process.env.REDIS_URL || !process.env.MQTT_URL) {
  throw new Error('The scale suite needs DATABASE_URL, REDIS_URL and MQTT_URL (see scripts/ci/with-services.sh)');
}

const ENTITY = `scale_${randomBytes(3).toString('hex')}`;
let a: TestServer;
let b: Awaited<ReturnType<typeof startPeer>>;
let token = '';

beforeAll(async () => {
  a = await startServer({ JWT_SECRET: 'scale-test-secret-shared-by-both-instances-0123' });
  b = await startPeer(a);
  token = (await signIn(a, ADMIN.name, ADMIN.password)).access_token;
  await a.request('POST', '/api/v1/tenant', { token, body: { document: { name: { name: ENTITY, description: '' } } } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('commands across API instances', () => {
  it('answers every command on the instance that sent it, wherever the reply arrived', async () => {
    const { names, devices } = await repliersOnline(a, token, ENTITY, 4);
    // 24 commands alternating between the instances: with two subscribers in the share group,
    // about half the replies reach the other instance.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 ? b : a).request('POST', `/api/v1/tenant/${ENTITY}/mqtt/general/${names[i % 4]}`, {
          token,
          body: { payload: { type: 'vibrate', song: 'V10' } },
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    // Each instance received some of the device traffic.
    expect(a.app.devices.stats.received).toBeGreaterThan(0);
    expect(b.app.devices.stats.received).toBeGreaterThan(0);
    await Promise.all(devices.map((d) => d.close()));
  });

  it('delivers a command held on one instance when the device wakes through the other', async () => {
    const name = randomBytes(6).toString('hex');
    const creds = await registerDevice(b, token, ENTITY, name);
    const held = await a.request('POST', `/api/v1/tenant/${ENTITY}/mqtt/general/${name}`, {
      token,
      body: { payload: { type: 'reboot' } },
    });
    expect(held.status).toBe(202);
    const dev = await connectDevice(a, ENTITY, creds);
    autoReply(dev);
    expect((await dev.nextCommand()).body.id).toBe(held.body.data.id);
    await eventually(async () => {
      const h = await b.request('GET', `/api/v1/tenant/${ENTITY}/device/${name}/commands`, { token });
      expect(h.body.data[0].state).toBe('succeeded');
    });
    await dev.close();
  });
});
