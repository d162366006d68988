// Child process for bench/beacons.mjs (run with `node --import tsx`). Not meant to be run by hand.
// Prints one JSON line {ready, mqttUrl} once HTTP (127.0.0.1:PORT) and MQTT listen.
//   MODE=app:  the real app from build() (sources, PGlite, embedded Aedes) with ENTITIES entities
//              `bench_e{i}`, one gateway device each (`lpad(hex(0xbe00 + i), 12)`, MQTT secret
//              `bench-{name}`) and one configured beacon each (`beac0000{i}`), threshold -100, no
//              dose due. Sightings go the whole way: ingest, rules, batched insert, Socket.IO room.
//   MODE=bare: the floor: a node:http server with Socket.IO (same namespace, a room per entity
//              from the handshake, no auth) and a bare Aedes broker whose one in-process subscriber
//              emits each sighting straight to its entity's room, with no database.
// Both answer GET /bench/stats (sockets connected, events emitted).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { Aedes } from 'aedes';
import { sql } from 'drizzle-orm';
import { Server } from 'socket.io';

const port = Number(process.env.PORT);
const host = '127.0.0.1';
const entities = Number(process.env.ENTITIES ?? 50);
export const entityName = (i: number) => `bench_e${i}`;
export const gatewayName = (i: number) => (0xbe00 + i).toString(16).padStart(12, '0');
export const beaconMac = (i: number) => `beac${i.toString(16).padStart(8, '0')}`;

type Stats = () => Record<string, number>;

async function startApp(): Promise<{ mqttUrl: string; stats: Stats }> {
  const { build } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { BENCH_PASSWORD, seedBenchTenant } = await import('./bench-tenant.ts');
  // initdb and the migrations first, outside Fastify's plugin timeout: on a busy box they can take longer.
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  await (await openDatabase({ dataDir: process.env.DATA_DIR! })).close();
  const app = await build(
    loadConfig({
      DATA_DIR: process.env.DATA_DIR,
      ADMIN_PASSWORD: BENCH_PASSWORD,
      LOG_LEVEL: 'silent',
      HOST: host,
      MQTT_PORT: '0',
    }),
    { logger: false },
  );
  const names = Array.from({ length: entities }, (_, i) => entityName(i));
  await seedBenchTenant(app.db, ['bench', ...names]);
  await app.db.execute(sql`
    insert into devices (name, entity, description, mqtt_secret_hash)
    select lpad(to_hex(48640 + i), 12, '0'), 'bench_e' || i, 'beacon gateway',
      encode(sha256(convert_to('bench-' || lpad(to_hex(48640 + i), 12, '0'), 'UTF8')), 'hex')
    from generate_series(0, ${entities - 1}) as i on conflict do nothing`);
  // A medication time twelve hours away (server time): no dose falls due during the run.
  const notDue = `${String((new Date().getHours() + 12) % 24).padStart(2, '0')}:00`;
  await app.db.execute(sql`
    insert into beacon_configs (entity, beacon_mac, patient_name, medications, rssi_threshold)
    select 'bench_e' || i, 'beac' || lpad(to_hex(i), 8, '0'), 'Patient ' || i,
      jsonb_build_array(jsonb_build_object('name', 'Placebo', 'dosage', '1', 'time', ${notDue}::text)), -100
    from generate_series(0, ${entities - 1}) as i on conflict do nothing`);
  app.route({
    method: 'GET',
    url: '/bench/stats',
    handler: async () => ({
      sockets: app.beacons.socket.connected(),
      ...app.beacons.sightings.counts,
    }),
  });
  await app.listen({ port, host });
  return { mqttUrl: app.devices.link.url, stats: () => ({}) };
}

async function startBare(): Promise<{ mqttUrl: string; stats: Stats }> {
  const counts = { sockets: 0, sightings: 0, events: 0 };
  const server = http.createServer((req, res) => {
    if (req.url === '/bench/stats') {
      counts.sockets = nsp.sockets.size;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
    } else res.writeHead(404).end();
  });
  const io = new Server(server, { serveClient: false, transports: ['websocket', 'polling'] });
  const nsp = io.of('/beacon-demo');
  nsp.on('connection', (socket) => {
    void socket.join(`entity:${(socket.handshake.auth as { entity: string }).entity}`);
    socket.emit('connection_response', { status: 'connected' });
  });
  const broker = await Aedes.createBroker();
  await new Promise<void>((resolve) =>
    broker.subscribe(
      'fleet/+/+/beacon',
      (packet, done) => {
        counts.sightings++;
        const [, entity, gateway] = packet.topic.split('/');
        const body = JSON.parse(packet.payload.toString()) as { beacon_mac: string; rssi: number };
        counts.events++;
        // The same shape and size as the app's event (BeaconEventSchema), so both sides put the
        // same bytes on the wire and the clients the same parsing.
        nsp.to(`entity:${entity}`).emit('beacon_event', {
          id: randomUUID(),
          event_type: 'beacon_detected',
          patient: 'Bench Patient',
          beacon_mac: body.beacon_mac,
          room: '101',
          rssi: body.rssi,
          gateway,
          timestamp: new Date().toISOString(),
          medications: ['Metformin 500 mg at 08:00'],
          message_sent: false,
        });
        done();
      },
      resolve,
    ),
  );
  const mqttServer = net.createServer(broker.handle);
  await new Promise<void>((resolve) => mqttServer.listen(0, host, resolve));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { mqttUrl: `mqtt://${host}:${(mqttServer.address() as net.AddressInfo).port}`, stats: () => counts };
}

const side = process.env.MODE === 'bare' ? await startBare() : await startApp();
console.log(JSON.stringify({ ready: true, mqttUrl: side.mqttUrl }));
