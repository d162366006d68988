import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectDevice,
  eventually,
  randomDeviceId as hex,
  registerDevice,
  startWithTwoEntities,
} from '../helpers/devices.ts';
import { closedWithin, connackOf, openSocket } from '../helpers/raw-mqtt.ts';
import type { TestServer } from '../helpers/server.ts';

// The embedded broker's own defences, so this file runs it in scale mode too (MQTT_URL emptied):
// with an external broker the operator configures them there (docs/operations.md).
let s: TestServer;
let root = '';
let ACME = '';

const ACCEPTED = 0;
const BAD_USERNAME_OR_PASSWORD = 4;

beforeAll(async () => {
  ({
    s,
    root,
    acme: ACME,
  } = await startWithTwoEntities({
    MQTT_URL: '',
    MQTT_CONNECT_TIMEOUT_MS: '1500',
    MQTT_MAX_UNAUTHENTICATED: '5',
    MQTT_MAX_UNAUTHENTICATED_PER_ADDRESS: '3',
    MQTT_AUTH_FAILURES: '3',
    MQTT_AUTH_ADDRESS_FAILURES: '6',
    MQTT_AUTH_DEVICE_FAILURES: '4',
    MQTT_AUTH_BACKOFF_MS: '1000',
  }));
});
afterAll(async () => s?.close());

const gate = () => s.app.devices.gate!.stats;

describe('oversized packets', () => {
  it('closes a stranger whose CONNECT header claims 256 MB, before the body is buffered', async () => {
    const before = gate().oversized;
    const socket = await openSocket(s.mqttUrl);
    socket.write(Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]));
    const chunk = Buffer.alloc(1024 * 1024);
    let written = 0;
    const writing = (async () => {
      while (!socket.destroyed && written < 64 * chunk.length) {
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
        written += chunk.length;
      }
    })();
    expect(await closedWithin(socket, 2000)).toBeLessThan(2000);
    await writing;
    expect(gate().oversized - before).toBe(1);
  });

  it('closes a signed-in device that announces a packet past the limit', async () => {
    const dev = await connectDevice(s, ACME, await registerDevice(s, root, ACME, hex()));
    const closed = new Promise((r) => dev.client.stream.once('close', r));
    // A PUBLISH header declaring 1 MB; the body never needs to come.
    dev.client.stream.write(Buffer.from([0x30, 0x80, 0x80, 0x40]));
    await closed;
    await dev.client.endAsync(true);
  });
});

describe('unauthenticated sockets', () => {
  it('refuses sockets past the limits per address and overall, and takes them again once those go', async () => {
    const before = gate().refused_pending;
    const first = await Promise.all([1, 2, 3].map(() => openSocket(s.mqttUrl, '127.0.0.1')));
    const extra = await openSocket(s.mqttUrl, '127.0.0.1');
    await closedWithin(extra, 1000);
    const others = await Promise.all([1, 2].map(() => openSocket(s.mqttUrl, '127.0.0.2')));
    const overall = await openSocket(s.mqttUrl, '127.0.0.3');
    await closedWithin(overall, 1000);
    expect(gate().refused_pending - before).toBe(2);
    for (const socket of [...first, ...others]) expect(socket.destroyed).toBe(false);

    for (const socket of [...first, ...others]) socket.destroy();
    const creds = await registerDevice(s, root, ACME, hex());
    await eventually(async () => expect(await connackOf(s.mqttUrl, creds.username, creds.password)).toBe(ACCEPTED));
  });

  it('closes a socket that has not signed in within the time limit', async () => {
    const before = gate().timed_out;
    const silent = await openSocket(s.mqttUrl);
    // Half a CONNECT, then nothing: trickling does not buy time.
    const trickle = await openSocket(s.mqttUrl);
    trickle.write(Buffer.from([0x10, 0x20, 0x00, 0x04]));
    const [a, b] = await Promise.all([closedWithin(silent, 5000), closedWithin(trickle, 5000)]);
    expect(Math.min(a, b)).toBeGreaterThan(1000);
    expect(gate().timed_out - before).toBe(2);
  });
});

describe('guessing device secrets', () => {
  it('throttles one device id from one address, the right secret too, until the back-off ends', async () => {
    const creds = await registerDevice(s, root, ACME, hex());
    for (let i = 0; i < 3; i++) expect(await connackOf(s.mqttUrl, creds.username, `guess-${i}`, '127.0.0.10')).toBe(4);
    expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.10')).toBe(BAD_USERNAME_OR_PASSWORD);
    // A stranger failing a device's id locks out only itself: the device, elsewhere, still gets in.
    expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.11')).toBe(ACCEPTED);
    await eventually(
      async () => expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.10')).toBe(ACCEPTED),
      5000,
    );
  });

  it('throttles one device id guessed from many addresses', async () => {
    const creds = await registerDevice(s, root, ACME, hex());
    for (const host of ['127.0.0.20', '127.0.0.21', '127.0.0.22', '127.0.0.23'])
      expect(await connackOf(s.mqttUrl, creds.username, 'guess', host)).toBe(BAD_USERNAME_OR_PASSWORD);
    expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.24')).toBe(BAD_USERNAME_OR_PASSWORD);
    await eventually(
      async () => expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.24')).toBe(ACCEPTED),
      5000,
    );
  });

  it('throttles an address guessing many device ids', async () => {
    const creds = await registerDevice(s, root, ACME, hex());
    for (let i = 0; i < 6; i++) expect(await connackOf(s.mqttUrl, hex(), 'guess', '127.0.0.30')).toBe(4);
    expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.30')).toBe(BAD_USERNAME_OR_PASSWORD);
    expect(await connackOf(s.mqttUrl, creds.username, creds.password, '127.0.0.31')).toBe(ACCEPTED);
  });
});
