import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, randomDeviceId, registerDevice, type TestDevice } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

/**
 * A device counts as connected for provisioning from the moment commands reach it: on the
 * embedded broker once its subscription to its command topic is acknowledged, on an external
 * broker once its report after subscribing is (the server learns of it only from that report).
 */
let s: TestServer;
let ACME = '';
let t: Record<'admin' | 'operator', string>;
const open: TestDevice[] = [];
const external = Boolean(process.env.MQTT_URL);

beforeAll(async () => {
  ({ s, acme: ACME, tokens: t } = await startForUploads({}, { shared: true }));
  const res = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, {
    fields: { level: 'entity', entity_id: ACME, file_device_path: 'config/app.json' },
    filename: 'app.json',
    bytes: 64,
  });
  expect(res.status).toBe(201);
});
afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
  await s?.close();
});

describe('provisioning right after a device connects', () => {
  it('is accepted, not 409 "not connected"', async () => {
    for (let i = 0; i < 5; i++) {
      const creds = await registerDevice(s, t.admin, ACME, randomDeviceId());
      // Resolves once the SUBACK (and, on an external broker, the PUBACK of the report) is in.
      const d = await connectDevice(s, ACME, creds, external);
      open.push(d);
      const command = d.nextCommand();
      const res = await s.request('POST', `/api/v1/tenant/${ACME}/provision/${d.name}`, { token: t.operator });
      expect(res.body?.errorInfo?.userMessage ?? 'accepted').toBe('accepted');
      expect(res.status).toBe(200);
      expect((await command).body).toMatchObject({ type: 'provision', id: res.body.data.session_id });
    }
  });
});
