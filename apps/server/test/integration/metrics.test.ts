import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLEET_COUNTS_MAX_AGE_MS } from '../../src/metrics/fleet-counts.ts';
import type { TestServer } from '../helpers/server.ts';
import {
  autoReply,
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
} from '../helpers/devices.ts';

const TOKEN = 'metrics-token-0123456789';

let s: TestServer;
let root = '';
let acme = '';
let globex = '';

beforeAll(async () => {
  ({ s, root, acme, globex } = await startWithTwoEntities({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0' }));
});
afterAll(async () => s?.close());

const scrape = async () => {
  const res = await s.request('GET', '/metrics', { token: TOKEN });
  expect(res.status).toBe(200);
  return res.text;
};
/** The value of one sample, `name{labels}`, or 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('/metrics', () => {
  it('answers only the METRICS_TOKEN bearer on the API port, and its own port too', async () => {
    expect((await s.request('GET', '/metrics')).status).toBe(401);
    expect((await s.request('GET', '/metrics', { token: 'metrics-token-wrong-012345' })).status).toBe(401);
    // An access token of the superadmin is not the metrics token.
    expect((await s.request('GET', '/metrics', { token: root })).status).toBe(401);
    const res = await s.request('GET', '/metrics', { token: TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.text).toContain('# TYPE fleet_http_request_duration_seconds histogram');

    const own = `http://127.0.0.1:${s.app.metricsAddress!.port}/metrics`;
    expect((await fetch(own)).status).toBe(401);
    const ok = await fetch(own, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('fleet_mqtt_received_total');
  });

  it('counts an HTTP call under its route pattern, and an MQTT state report under its kind', async () => {
    const name = hex();
    const creds = await registerDevice(s, root, acme, name);
    const before = await scrape();
    const route =
      'fleet_http_request_duration_seconds_count{method="GET",route="/api/v1/tenant/:entity/device/:name",status_code="200"}';
    const res = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}`, { token: root });
    expect(res.status).toBe(200);

    const device = await connectDevice(s, acme, creds);
    await device.publish('state', { state: 'Operational', battery: 80 });
    const after = await eventually(async () => {
      const text = await scrape();
      expect(sample(text, 'fleet_mqtt_messages_total{kind="state"}')).toBeGreaterThan(
        sample(before, 'fleet_mqtt_messages_total{kind="state"}'),
      );
      expect(sample(text, 'fleet_devices{state="online"}')).toBeGreaterThanOrEqual(1);
      return text;
      // The database's counts are read at most once in FLEET_COUNTS_MAX_AGE_MS.
    }, 2 * FLEET_COUNTS_MAX_AGE_MS);
    expect(sample(after, route)).toBe(sample(before, route) + 1);
    expect(sample(after, 'fleet_db_query_duration_seconds_count')).toBeGreaterThan(
      sample(before, 'fleet_db_query_duration_seconds_count'),
    );
    expect(sample(after, 'fleet_batcher_flush_duration_seconds_count{batcher="telemetry"}')).toBeGreaterThan(0);
    device.client.end(true);
  });

  it('counts a settled command by type and state', async () => {
    const name = hex();
    const device = await connectDevice(s, acme, await registerDevice(s, root, acme, name));
    autoReply(device);
    const series = 'fleet_commands_settled_total{type="vibrate",state="succeeded"}';
    const before = sample(await scrape(), series);
    await eventually(async () => {
      const res = await s.request('GET', `/api/v1/tenant/${acme}/device/${name}`, { token: root });
      expect(res.body.data.online).toBe(true);
    });
    const sent = await s.request('POST', `/api/v1/tenant/${acme}/mqtt/general/${name}`, {
      token: root,
      body: { payload: { type: 'vibrate', song: 'V10' } },
    });
    expect(sent.status).toBe(200);
    expect(sample(await scrape(), series)).toBe(before + 1);
    device.client.end(true);
  });

  it('puts no entity, device or account name in any label', async () => {
    const text = await scrape();
    for (const secret of [acme, globex, 'admin']) expect(text).not.toContain(secret);
    // Every label value comes from a fixed set (docs/metrics.md): no raw URL, no id.
    const values = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]!);
    for (const v of values) expect(v).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|acme_|globex_/);
  });
});
