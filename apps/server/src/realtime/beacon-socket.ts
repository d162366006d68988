import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server, type Namespace } from 'socket.io';
import { BEACON_NAMESPACE, BEACON_SOCKET_EVENTS, type LiveEndReason } from '@fleet/shared/beacon-constants';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import { HttpError, notFound } from '../lib/http-error.ts';
import { assertEntityAccess, claimsOf, isLandlord, type AuthOptions } from '../plugins/auth.ts';
import type { LiveWatch } from '../domain/deps.ts';
import { PacketBudget } from './packet-budget.ts';

interface SocketData {
  claims: AccessClaims;
  entity: string;
}

/**
 * The largest message a client may send. The console sends only its handshake (a token and an
 * entity name, well under 2 KiB); Socket.IO's default is 1 MB.
 */
const MAX_MESSAGE_BYTES = 16 * 1024;

export interface BeaconSocket {
  /** Emits events to the entity's room on every instance (through Redis when configured). */
  emit(entity: string, events: BeaconEvent[]): void;
  /** Connected sockets on this instance. */
  connected(): number;
  /** Connections cut on this instance for sending faster than their budget. */
  floods(): number;
  /** Disconnects this instance's sockets at once (call in preClose). */
  disconnectAll(): void;
  close(): Promise<void>;
}

/** The room of an entity: a socket joins only its own, so no entity hears another. */
export const entityRoom = (entity: string) => `entity:${entity}`;

/** Why a handshake is refused, as the client's `connect_error` reads it. */
function refusal(err: unknown): Error {
  const e = new Error(err instanceof HttpError ? err.userMessage : 'Authentication required') as Error & {
    data?: unknown;
  };
  e.data = { code: err instanceof HttpError ? err.statusCode : 401 };
  return e;
}

/** Tells the client why, then ends its socket (the client does not reconnect by itself after this). */
function endSocket(
  socket: { emit(e: string, v: unknown): void; disconnect(close: boolean): void },
  reason: LiveEndReason,
) {
  socket.emit(BEACON_SOCKET_EVENTS.connectionEnded, { reason });
  socket.disconnect(true);
}

export interface BeaconSocketOptions extends AuthOptions {
  /** Ends a socket when its token, session, account or entity is gone, or its access token expires. */
  live: LiveWatch;
  /** Incoming packets a connection may send: sustained per second, and at once. */
  packetBudget: { perSecond: number; burst: number };
  redisUrl?: string | undefined;
  /** Whether an entity exists: a superadmin's handshake naming one that does not is refused. */
  entityExists(entity: string): Promise<boolean>;
  onError(err: unknown): void;
}

/**
 * The realtime `/beacon-demo` namespace on the API's own HTTP server. The handshake carries the
 * access token (`auth.token`) and the entity (`auth.entity`, default the token's); a socket joins
 * that entity's room. A socket ends when its right lapses (`live`); a connection that sends more
 * packets than its budget is cut.
 */
export async function attachBeaconSocket(server: HttpServer, o: BeaconSocketOptions): Promise<BeaconSocket> {
  const io = new Server(server, {
    serveClient: false,
    transports: ['websocket', 'polling'],
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
  });
  let floods = 0;
  // Counted on the connection, below the namespaces: a flood through any namespace is cut.
  io.engine.on('connection', (conn: { on(e: 'packet', l: () => void): void; close(): void }) => {
    const budget = new PacketBudget(o.packetBudget.perSecond, o.packetBudget.burst);
    let cut = false;
    conn.on('packet', () => {
      if (cut || budget.take()) return;
      cut = true;
      floods++;
      conn.close();
    });
  });
  let redis: Redis[] = [];
  if (o.redisUrl) {
    // Loaded only here: a single instance (no REDIS_URL) never loads the clients.
    const [{ Redis }, { createAdapter }] = await Promise.all([import('ioredis'), import('@socket.io/redis-adapter')]);
    const pub = new Redis(o.redisUrl, { maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => o.onError(err));
    redis = [pub, sub];
    io.adapter(createAdapter(pub, sub, { key: 'fleet:socket.io' }));
  }
  // Only the demo's namespace is served: the main one (which Socket.IO always has) refuses everyone,
  // so no socket sits on this server without a token; other names are refused by Socket.IO itself.
  io.of('/').use((_socket, next) => next(refusal(notFound('Namespace'))));
  const nsp: Namespace<never, never, never, SocketData> = io.of(BEACON_NAMESPACE);
  // The bearer stays on this instance: `socket.data` can be read by other instances through the adapter.
  const bearers = new WeakMap<object, string>();
  nsp.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; entity?: unknown };
    if (typeof auth.token !== 'string' || auth.token === '') return next(refusal(null));
    claimsOf(auth.token, o).then(
      async (claims) => {
        const entity = typeof auth.entity === 'string' && auth.entity !== '' ? auth.entity : claims.entity;
        try {
          if (!entity) throw new HttpError(404, 'Entity not found');
          assertEntityAccess(claims, entity);
          // A superadmin names the entity it looks inside: one that does not exist has no room to hear.
          if (isLandlord(claims) && !(await o.entityExists(entity))) throw new HttpError(404, 'Entity not found');
          socket.data = { claims, entity };
          bearers.set(socket, auth.token as string);
          next();
        } catch (err) {
          next(refusal(err));
        }
      },
      (err) => next(refusal(err)),
    );
  });
  nsp.on('connection', (socket) => {
    const { claims, entity } = socket.data;
    const open = socket as unknown as { emit(e: string, v: unknown): void; disconnect(close: boolean): void };
    const unwatch = o.live.watch({ token: bearers.get(socket)!, claims, entity }, (reason) => endSocket(open, reason));
    socket.on('disconnect', unwatch);
    void socket.join(entityRoom(entity));
    open.emit(BEACON_SOCKET_EVENTS.connectionResponse, { status: 'connected', entity });
  });

  return {
    emit(entity, events) {
      const room = nsp.to(entityRoom(entity)) as unknown as { emit(e: string, v: unknown): void };
      for (const event of events) room.emit(BEACON_SOCKET_EVENTS.beaconEvent, event);
    },
    connected: () => nsp.sockets.size,
    floods: () => floods,
    // `io.local` is the main namespace only; the demo's sockets are in their own. Closing the
    // engine also ends pending polling requests, which would otherwise hold the HTTP server open.
    disconnectAll() {
      nsp.local.disconnectSockets(true);
      io.engine.close();
    },
    async close() {
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      await Promise.allSettled(redis.map((c) => c.quit()));
    },
  };
}
