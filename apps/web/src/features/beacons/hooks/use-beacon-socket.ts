import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { BEACON_FEED_SIZE, BEACON_NAMESPACE, BEACON_SOCKET_EVENTS } from '@fleet/shared/beacon-constants';
import { BeaconEventSchema, type BeaconEvent } from '@fleet/shared/schemas/beacon';
import { refresher, session } from '@/lib/session/session.ts';
import { superviseSocket } from './socket-supervisor.ts';

/** How long to wait before trying again after the server refused or dropped the socket. */
const RETRY_MS = 3_000;

export interface BeaconSocketState {
  connected: boolean;
  /** The most recent events, newest first (at most 50). */
  feed: BeaconEvent[];
  /** Reconnects at once if disconnected. */
  reconnect(): void;
}

/**
 * The `/beacon-demo` socket (fleet §7): the handshake carries the current access token and the
 * active entity; `onEvent` hears every `beacon_event`. When the server ends the socket at the
 * token's expiry, or refuses an expired one, it connects again with a renewed token
 * (socket-supervisor.ts).
 */
export function useBeaconSocket(entity: string | null, onEvent: (event: BeaconEvent) => void): BeaconSocketState {
  const [connected, setConnected] = useState(false);
  const [feed, setFeed] = useState<BeaconEvent[]>([]);
  const socketRef = useRef<Socket | null>(null);
  const onEventRef = useRef(onEvent);
  useEffect(() => {
    onEventRef.current = onEvent;
  });

  useEffect(() => {
    if (!entity) return;
    let used: string | null = null;
    const socket = io(BEACON_NAMESPACE, {
      auth: (cb) => {
        used = session.getSnapshot().accessToken;
        cb({ token: used, entity });
      },
      transports: ['websocket', 'polling'],
    });
    socketRef.current = socket;
    const supervisor = superviseSocket(socket, {
      usedToken: () => used,
      currentToken: () => session.getSnapshot().accessToken,
      renew: () => refresher.refresh().then(() => session.getSnapshot().status === 'signed-in'),
      onConnected: setConnected,
      retryMs: RETRY_MS,
    });
    socket.on(BEACON_SOCKET_EVENTS.beaconEvent, (raw: unknown) => {
      const parsed = BeaconEventSchema.safeParse(raw);
      if (!parsed.success) return;
      setFeed((list) => [parsed.data, ...list].slice(0, BEACON_FEED_SIZE));
      onEventRef.current(parsed.data);
    });
    return () => {
      supervisor.dispose();
      socket.removeAllListeners();
      socket.disconnect();
      socketRef.current = null;
      setConnected(false);
    };
  }, [entity]);

  return {
    connected,
    feed,
    reconnect: () => {
      const socket = socketRef.current;
      if (socket && !socket.connected) socket.connect();
    },
  };
}
