// Worker thread of bench/beacons.mjs: connects its share of the Socket.IO clients (websocket
// transport, like the console) to `/beacon-demo`, each in one entity's room, and records every
// `beacon_event` as (entity index, rssi, receive time). Not meant to be run by hand.
import { parentPort, workerData } from 'node:worker_threads';
import { io } from 'socket.io-client';

const { url, token, entities, clients, offset, connectRate } = workerData;
const sockets = [];
const log = {
  entity: new Uint8Array(4_000_000),
  rssi: new Int8Array(4_000_000),
  at: new Float64Array(4_000_000),
  n: 0,
};
let recording = false;
let connected = 0;
let failed = 0;

const now = () => performance.timeOrigin + performance.now();

for (let k = 0; k < clients; k++) {
  const e = (offset + k) % entities;
  const socket = io(`${url}/beacon-demo`, {
    auth: { token, entity: `bench_e${e}` },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  socket.once('connection_response', () => connected++);
  socket.once('connect_error', () => failed++);
  socket.on('beacon_event', (event) => {
    if (!recording || log.n >= log.at.length) return;
    const i = log.n++;
    log.entity[i] = e;
    log.rssi[i] = event.rssi;
    log.at[i] = now();
  });
  sockets.push(socket);
  if (k % 50 === 49) await new Promise((r) => setTimeout(r, (50 * 1000) / connectRate));
}

parentPort.on('message', (m) => {
  if (m === 'status') parentPort.postMessage({ connected, failed });
  if (m === 'record') recording = true;
  if (m === 'stop') {
    recording = false;
    const n = log.n;
    parentPort.postMessage({
      connected,
      failed,
      entity: log.entity.slice(0, n),
      rssi: log.rssi.slice(0, n),
      at: log.at.slice(0, n),
    });
    for (const s of sockets) s.disconnect();
    log.n = 0;
  }
});
parentPort.postMessage({ connected, failed });
