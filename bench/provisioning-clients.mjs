// The provisioning bench's clients (bench/provisioning.mjs): free ports, the bench entity's API,
// devices registered and files uploaded through it, an event stream read by hand, and a device
// speaking MQTT by hand.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import mqttPacket from 'mqtt-packet';
import { HOST } from './lib.mjs';

export async function freePortsFrom(start, n) {
  const free = [];
  for (let port = start; free.length < n && port < start + 100; port++) {
    const ok = await new Promise((resolve) => {
      const srv = net.createServer().once('error', () => resolve(false));
      srv.listen(port, HOST, () => srv.close(() => resolve(true)));
    });
    if (ok) free.push(port);
  }
  if (free.length < n) throw new Error(`No ${n} free ports from ${start}`);
  return free;
}

export const api = (s, method, p, body) =>
  fetch(`${s.url}/api/v1/tenant/bench/${p}`, {
    method,
    headers: { ...s.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

export async function uploadFiles(s, count, from, fileKb) {
  for (let i = from; i < from + count; i++) {
    const form = new FormData();
    for (const [k, v] of Object.entries({ level: 'entity', entity_id: 'bench', file_device_path: `bench/f${i}.bin` }))
      form.append(k, v);
    form.append('file', new Blob([randomBytes(fileKb * 1024)]), `f${i}.bin`);
    const res = await fetch(`${s.url}/api/v1/tenant/bench/files`, { method: 'POST', headers: s.auth, body: form });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}`);
  }
}

/** Registers `n` devices named from `base`, 20 at a time; answers their credentials. */
export async function register(s, n, base) {
  const creds = [];
  const names = Array.from({ length: n }, (_, i) => (base + i).toString(16).padStart(12, '0'));
  for (let i = 0; i < names.length; i += 20)
    await Promise.all(
      names.slice(i, i + 20).map(async (name) => {
        const res = await api(s, 'POST', 'device', {
          document: { name, description: 'bench', manufacturing_type: 'CC1' },
        });
        creds.push({ name, entity: 'bench', password: res.body.data.mqtt.password });
      }),
    );
  return creds;
}

/**
 * Follows one device's event stream; `onEvent(event, seq, at)` for each event after `connection`.
 * Resolves with the number of session events received once the server closes the stream.
 */
export async function watch(s, device, onEvent) {
  // node:http rather than fetch: the same request (token in the Authorization header), read with
  // a fraction of the CPU, which the load generator shares with the server on this box.
  const res = await new Promise((resolve, reject) =>
    http
      .get(
        `${s.url}/api/v1/tenant/bench/provision/${device}/events`,
        { headers: { ...s.auth, accept: 'text/event-stream' } },
        resolve,
      )
      .on('error', reject),
  );
  if (res.statusCode !== 200) throw new Error(`stream answered ${res.statusCode}`);
  res.setEncoding('utf8');
  let buffer = '';
  let received = 0;
  // 'data' events rather than async iteration: no promise per chunk.
  res.on('data', (chunk) => {
    const at = performance.now();
    buffer += chunk;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const id = /^id: (.*)$/m.exec(block)?.[1];
      if (!event || !id || event === 'connection') continue;
      received++;
      onEvent(event, Number(id.split(':')[1]), at);
    }
  });
  return new Promise((resolve, reject) => res.on('end', () => resolve(received)).on('error', reject));
}

/**
 * A device speaking the protocol by hand on a bare socket (MQTT 3.1.1 packets from mqtt-packet):
 * it publishes at QoS 1 like the simulator, but without a client library's per-message
 * bookkeeping, which on this box took CPU from the server it measures.
 */
export async function handDevice(mqttPort, cred) {
  const socket = net.connect(mqttPort, HOST);
  socket.setNoDelay(true);
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const commands = [];
  const waiters = [];
  const acks = [];
  let nextId = 0;
  const send = (packet) => socket.write(mqttPacket.generate(packet));
  parser.on('packet', (p) => {
    if (p.cmd === 'publish') {
      if (p.qos > 0) send({ cmd: 'puback', messageId: p.messageId });
      const cmd = JSON.parse(p.payload.toString());
      const w = waiters.shift();
      if (w) w(cmd);
      else commands.push(cmd);
    } else if (p.cmd === 'connack' || p.cmd === 'suback') acks.shift()?.(p);
  });
  parser.on('error', (err) => socket.destroy(err));
  socket.on('data', (chunk) => parser.parse(chunk));
  const answer = () => new Promise((resolve) => acks.push(resolve));
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const connack = answer();
  send({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean: true,
    keepalive: 0,
    clientId: cred.name,
    username: cred.name,
    password: Buffer.from(cred.password),
  });
  if ((await connack).returnCode !== 0) throw new Error(`${cred.name}: connection refused`);
  const suback = answer();
  send({ cmd: 'subscribe', messageId: ++nextId, subscriptions: [{ topic: `fleet/bench/${cred.name}/cmd`, qos: 1 }] });
  await suback;
  const publish = (topic, payload) =>
    send({ cmd: 'publish', topic, payload, qos: 1, messageId: (nextId = (nextId % 65535) + 1) });
  publish(`fleet/bench/${cred.name}/state`, JSON.stringify({ online: true }));
  return {
    publish,
    end: () => new Promise((resolve) => (send({ cmd: 'disconnect' }), socket.end(resolve))),
    nextCommand: () => (commands.length ? Promise.resolve(commands.shift()) : new Promise((r) => waiters.push(r))),
  };
}

/** The report list of a session with `files`: ready, each file queued/downloading/completed, finalizing, completed. */
export function reportsFor(files) {
  const out = [{ phase: 'ready' }];
  for (const f of files)
    for (const status of ['queued', 'downloading', 'completed'])
      out.push({ phase: 'file', device_path: f.device_path, status });
  out.push({ phase: 'finalizing' }, { phase: 'completed' });
  return out;
}
