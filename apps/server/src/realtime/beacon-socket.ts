import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server, type Namespace } from 'socket.io';
import { BEACON_NAMESPACE, BEACON_SOCKET_EVENTS } from '@fleet/shared/beacon-constants';
import type { BeaconEvent } from '@fleet/shared/schemas/beacon';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Bus } from '../lib/bus.ts';
import { HttpError } from '../lib/http-error.ts';
import { assertEntityAccess, claimsOf, type AuthOptions } from '../plugins/auth.ts';

interface SocketData {
  claims: AccessClaims;
  entity: string;
}

export interface BeaconSocket {
  /** Emits events to the entity's room on every instance (through Redis when configured). */
  emit(entity: string, events: BeaconEvent[]): void;
  /** Connected sockets on this instance. */
  connected(): number;
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

/**
 * The realtime `/beacon-demo` namespace on the API's own HTTP server. The handshake carries the
 * access token (`auth.token`) and the entity (`auth.entity`, default the token's); a socket joins
 * that entity's room. Sockets of a session that ends are disconnected.
 */
export function attachBeaconSocket(
  server: HttpServer,
  o: AuthOptions & { bus: Bus; redisUrl?: string | undefined; onError(err: unknown): void },
): BeaconSocket {
  const io = new Server(server, { serveClient: false, transports: ['websocket', 'polling'] });
  let redis: Redis[] = [];
  if (o.redisUrl) {
    const pub = new Redis(o.redisUrl, { maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    for (const c of [pub, sub]) c.on('error', (err) => o.onError(err));
    redis = [pub, sub];
    io.adapter(createAdapter(pub, sub, { key: 'fleet:socket.io' }));
  }
  const nsp: Namespace<never, never, never, SocketData> = io.of(BEACON_NAMESPACE);
  nsp.use((socket, next) => {
    const auth = socket.handshake.auth as { token?: unknown; entity?: unknown };
    if (typeof auth.token !== 'string' || auth.token === '') return next(refusal(null));
    claimsOf(auth.token, o).then(
      (claims) => {
        const entity = typeof auth.entity === 'string' && auth.entity !== '' ? auth.entity : claims.entity;
        try {
          if (!entity) throw new HttpError(404, 'Entity not found');
          assertEntityAccess(claims, entity);
          socket.data = { claims, entity };
          next();
        } catch (err) {
          next(refusal(err));
        }
      },
      (err) => next(refusal(err)),
    );
  });
  nsp.on('connection', (socket) => {
    void socket.join(entityRoom(socket.data.entity));
    (socket as unknown as { emit(e: string, v: unknown): void }).emit(BEACON_SOCKET_EVENTS.connectionResponse, {
      status: 'connected',
      entity: socket.data.entity,
    });
  });
  o.bus.subscribe('families.revoked', ({ ids }) => {
    const ended = new Set(ids);
    for (const socket of nsp.sockets.values()) if (ended.has(socket.data.claims?.fam ?? '')) socket.disconnect(true);
  });

  return {
    emit(entity, events) {
      const room = nsp.to(entityRoom(entity)) as unknown as { emit(e: string, v: unknown): void };
      for (const event of events) room.emit(BEACON_SOCKET_EVENTS.beaconEvent, event);
    },
    connected: () => nsp.sockets.size,
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
