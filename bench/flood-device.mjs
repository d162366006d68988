// Child process of bench/flood.mjs: ONE authenticated device that floods its own topics. Raw MQTT
// 3.1.1 over node:net (packets from mqtt-packet), QoS 0, written in large batches from a ring of
// pre-generated packets, paced to RATE msg/s for SECONDS: the generator gets its own process so it
// does not share an event loop with the latency probe. A write the socket refuses waits for
// `drain`, so the rate printed is what the server let in, not what was asked. A connection the
// server ends is counted and opened again after RECONNECT_MS (as a misbehaving device would);
// SIGTERM ends the flood early.
// Prints {ready} once the first CONNACK accepts it, then one JSON line of results.
// Env: MQTT_URL, NAME, ENTITY, PASSWORD, RATE, SECONDS, MIX ("beacon:2,state:1,events:1"), MACS.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import mqttPacket from 'mqtt-packet';

const env = process.env;
const url = new URL(env.MQTT_URL);
const RATE = Number(env.RATE);
const SECONDS = Number(env.SECONDS);
const MIX = env.MIX.split(',').map((part) => part.split(':'));
const MACS = env.MACS.split(',');
const MAX_BATCH = 4096; // packets per write at most (~0.5 MB)
const RECONNECT_MS = 250;
const MAX_CONNECTS = 200; // a bound on reconnecting when the server keeps cutting the device off
const CONNACK_TIMEOUT_MS = 5000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the packets ---------------------------------------------------------------------------------

const topic = (kind) => `fleet/${env.ENTITY}/${env.NAME}/${kind}`;
const commandIds = Array.from({ length: 8 }, () => randomUUID());
const bodies = {
  beacon: (i) => ({ beacon_mac: MACS[i % MACS.length], rssi: -40 - (i % 40), ts: Date.now() }),
  state: (i) => ({ battery: i % 101, is_charging: i % 2 === 0, state: 'IDLE', ts: Date.now() }),
  events: (i) => ({ type: 'dfu', id: commandIds[i % 8], phase: 'downloading', progress: i % 100 }),
};
/** The kind of the i-th packet: the mix's weights, interleaved (beacon, beacon, state, events, …). */
const kinds = MIX.flatMap(([kind, weight]) => Array.from({ length: Number(weight) }, () => kind));
const RING = kinds.length * 2048; // packets generated once, sent round and round: whole rounds of the mix
const packets = Array.from({ length: RING }, (_, i) => {
  const kind = kinds[i % kinds.length];
  return mqttPacket.generate({
    cmd: 'publish',
    topic: topic(kind),
    payload: Buffer.from(JSON.stringify(bodies[kind](i))),
    qos: 0,
    retain: false,
    dup: false,
  });
});
const ring = Buffer.concat(packets);
const offsets = [0];
for (const p of packets) offsets.push(offsets.at(-1) + p.length);
const perKind = Object.fromEntries(kinds.map((k) => [k, 0]));
for (const k of kinds) perKind[k]++;

// ---- the connection ------------------------------------------------------------------------------

const stats = { connects: 0, refused: 0, cutOff: 0, cutOffAtMs: [], connackMs: [], stoppedEarly: false };
let socket = null;

/** Opens a connection and resolves once the CONNACK accepts it; null if refused, closed or silent. */
async function connect(t0) {
  stats.connects++;
  const s = net.connect(Number(url.port), url.hostname);
  s.setNoDelay(true);
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const started = performance.now();
  const accepted = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), CONNACK_TIMEOUT_MS);
    parser.on('packet', (p) => p.cmd === 'connack' && (clearTimeout(timer), resolve(p.returnCode === 0)));
    parser.on('error', () => s.destroy());
    s.on('data', (chunk) => parser.parse(chunk)); // also keeps reading whatever else comes
    s.on('error', () => {});
    s.on('close', () => (clearTimeout(timer), resolve(false)));
    s.once('connect', () =>
      s.write(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          keepalive: 0,
          clientId: env.NAME,
          username: env.NAME,
          password: Buffer.from(env.PASSWORD),
        }),
      ),
    );
  });
  if (!accepted) {
    stats.refused++;
    s.destroy();
    return null;
  }
  stats.connackMs.push(performance.now() - started);
  s.once('close', () => {
    if (socket !== s) return;
    socket = null;
    stats.cutOff++;
    stats.cutOffAtMs.push(Math.round(performance.now() - t0));
  });
  return s;
}

/** Writes packets [from, from + n) of the ring (wrapping); resolves false once the socket is gone. */
async function writeBatch(s, from, n) {
  let ok = true;
  for (let left = n, at = from; left > 0;) {
    const k = Math.min(left, RING - at);
    ok = s.write(ring.subarray(offsets[at], offsets[at + k]));
    left -= k;
    at = (at + k) % RING;
  }
  if (ok) return true;
  return new Promise((resolve) => {
    const done = (alive) => (s.off('drain', onDrain), s.off('close', onClose), resolve(alive));
    const onDrain = () => done(true);
    const onClose = () => done(false);
    s.on('drain', onDrain).on('close', onClose);
  });
}

// ---- the flood -----------------------------------------------------------------------------------

const tReady = performance.now();
socket = await connect(tReady);
if (!socket) {
  console.log(JSON.stringify({ error: 'the first CONNECT was refused', ...stats }));
  process.exit(1);
}
console.log(JSON.stringify({ ready: true, packetBytes: ring.length / RING }));

const t0 = performance.now();
let end = t0 + SECONDS * 1000;
// SIGTERM (the bench saw the server's RSS pass its cap): stop now, still print the results.
process.once('SIGTERM', () => {
  end = 0;
  stats.stoppedEarly = true;
  const s = socket;
  socket = null;
  s?.destroy();
});
const perSecond = [];
let sent = 0;
let nextConnectAt = 0;
while (performance.now() < end) {
  const now = performance.now();
  if (!socket) {
    if (stats.connects >= MAX_CONNECTS || now < nextConnectAt) {
      await sleep(Math.min(50, end - now));
      continue;
    }
    nextConnectAt = now + RECONNECT_MS;
    socket = await connect(t0);
    continue;
  }
  // Due: what the schedule asks by now, minus what was sent. While cut off nothing is owed.
  const due = Math.floor((RATE * (now - t0)) / 1000) - sent;
  if (due <= 0) {
    await sleep(1);
    continue;
  }
  const n = Math.min(due, MAX_BATCH);
  const s = socket;
  const alive = await writeBatch(s, sent % RING, n);
  sent += n; // written to the socket (a few MB may still sit in the kernel when it is cut off)
  const second = Math.floor((performance.now() - t0) / 1000);
  perSecond[second] = (perSecond[second] ?? 0) + n;
  if (!alive && socket === s) socket = null;
}
const elapsedMs = performance.now() - t0;
/** Packets of `kind` among the first `sent` (the ring holds whole rounds of the mix). */
const sentOf = (kind) =>
  Math.floor(sent / kinds.length) * perKind[kind] +
  kinds.slice(0, sent % kinds.length).filter((k) => k === kind).length;
if (socket) {
  socket.write(mqttPacket.generate({ cmd: 'disconnect' }));
  await new Promise((resolve) => socket.end(resolve));
}
console.log(
  JSON.stringify({
    sent,
    elapsedMs,
    rate: (sent * 1000) / elapsedMs,
    mix: Object.fromEntries(Object.keys(perKind).map((k) => [k, sentOf(k)])),
    perSecond: Array.from(perSecond, (n) => n ?? 0),
    bytes: Math.round((sent * ring.length) / RING),
    ...stats,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    connackMs: undefined,
    connackMaxMs: Math.max(...stats.connackMs),
  }),
);
