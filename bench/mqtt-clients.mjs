// Worker thread of bench/mqtt.mjs: a slice of the simulated fleet as raw mqtt.js clients (MQTT
// 3.1.1, client id = username = device id, password `bench-{id}`, as bench/mqtt-server.ts stores
// it). Driven by messages from the main thread; every step answers with one message:
//   {cmd: 'connect', url, names, rate, repliers, entityTopic} → {event: 'connected', ok, failed, error, ms, okMs}
//     connects at `rate`/s (`okMs`: when the last CONNACK came, the end of the ramp); the first
//     `repliers` devices subscribe to their command topic (and with `entityTopic` to the entity's,
//     `fleet/bench/cmd`) and answer every command at once with success.
//   {cmd: 'publish', seconds, window} → {event: 'published', sent, acked, errors, unacked}
//     QoS 1 state reports flat out for `seconds`, round robin over the devices, at most `window`
//     awaiting their PUBACK; then waits (≤ 10 s) for the last acks.
//   {cmd: 'final'} → {event: 'final', acked, errors}: each device reports {state: 'BENCH_LAST',
//     battery: i % 101} (i = the number its hex id spells) once, so the database can be checked afterwards.
//   {cmd: 'close'} → {event: 'closed'}: every client sends DISCONNECT (≤ 10 s, then dropped).
import { parentPort } from 'node:worker_threads';
import mqtt from 'mqtt';

const clients = []; // {client, topic, name}
let lost = 0; // connections that ended without our asking
let closing = false;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const post = (msg) => parentPort.postMessage({ ...msg, lost });

async function connect({ url, names, rate, repliers, entityTopic = false }) {
  const t0 = performance.now();
  let ok = 0;
  let failed = 0;
  let error = null;
  let okMs = 0;
  const one = (name, index) =>
    new Promise((resolve) => {
      const client = mqtt.connect(url, {
        protocolVersion: 4,
        clientId: name,
        username: name,
        password: `bench-${name}`,
        clean: true,
        keepalive: 60,
        reconnectPeriod: 0,
        connectTimeout: 30_000,
      });
      const base = `fleet/bench/${name}`;
      let settled = false;
      const fail = (message) => {
        if (settled) return;
        settled = true;
        failed++;
        error ??= message;
        client.end(true);
        resolve();
      };
      client.once('connect', async () => {
        settled = true;
        // A connection the broker drops later is counted and reported with every step.
        client.once('close', () => void (closing || lost++));
        if (index < repliers) {
          client.on('message', (_topic, payload) => {
            const { id } = JSON.parse(payload.toString());
            client.publish(`${base}/reply`, JSON.stringify({ id, status: 'success' }), { qos: 1 });
          });
          await client.subscribeAsync(entityTopic ? [`${base}/cmd`, 'fleet/bench/cmd'] : `${base}/cmd`, { qos: 1 });
        }
        clients.push({ client, topic: `${base}/state`, name });
        ok++;
        okMs = performance.now() - t0;
        resolve();
      });
      client.on('error', (err) => fail(err.message));
      client.once('close', () => fail('closed before CONNACK'));
    });
  const pending = [];
  // Paced by the clock, not by answers: `rate` connects a second however slow the broker is.
  for (let i = 0; i < names.length; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(one(names[i], i));
  }
  await Promise.race([Promise.all(pending), sleep(60_000)]);
  post({
    event: 'connected',
    ok,
    failed: failed + (names.length - ok - failed),
    error,
    ms: performance.now() - t0,
    okMs,
  });
}

/**
 * Publishes what `messages(i)` answers (null: no more) with at most `window` unacknowledged;
 * resolves once every one is acknowledged, or at `deadline` (performance.now()) if a stalled
 * broker holds acks back.
 */
function pump(messages, window, deadline) {
  return new Promise((resolve) => {
    let inflight = 0;
    let sent = 0;
    let acked = 0;
    let errors = 0;
    const guard = setTimeout(() => finish(), deadline - performance.now());
    let stopped = false;
    const finish = () => {
      stopped = true;
      clearTimeout(guard);
      resolve({ sent, acked, errors, unacked: inflight });
    };
    const next = () => {
      while (!stopped && inflight < window) {
        const m = messages(sent);
        if (!m) break;
        inflight++;
        sent++;
        m.client.publish(m.topic, m.payload, { qos: 1 }, (err) => {
          inflight--;
          if (err) errors++;
          else acked++;
          next();
        });
      }
      if (inflight === 0 && !stopped) finish();
    };
    next();
  });
}

async function publish({ seconds, window }) {
  const until = performance.now() + seconds * 1000;
  const n = clients.length;
  const result = await pump(
    (i) => {
      if (performance.now() >= until || n === 0) return null;
      const c = clients[i % n];
      return { client: c.client, topic: c.topic, payload: `{"state":"ALLOCATED","battery":${i % 101}}` };
    },
    window,
    until + 10_000,
  );
  post({ event: 'published', ...result });
}

async function final({ window }) {
  const result = await pump(
    (i) => {
      const c = clients[i];
      if (!c) return null;
      const payload = `{"state":"BENCH_LAST","battery":${parseInt(c.name, 16) % 101}}`;
      return { client: c.client, topic: c.topic, payload };
    },
    window,
    performance.now() + 30_000,
  );
  post({ event: 'final', ...result });
}

async function close() {
  closing = true;
  const ends = clients.map((c) => c.client.endAsync().catch(() => {}));
  await Promise.race([Promise.all(ends), sleep(10_000)]);
  for (const c of clients) c.client.end(true);
  post({ event: 'closed' });
}

parentPort.on('message', (msg) => {
  const step = { connect, publish, final, close }[msg.cmd];
  void step(msg);
});
