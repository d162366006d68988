import { useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { BEACON_FEED_SIZE, BEACON_NAMESPACE, BEACON_SOCKET_EVENTS } from '@fleet/shared/beacon-constants';
import { BeaconEventSchema, type BeaconEvent } from '@fleet/shared/schemas/beacon';
import { session } from '@/lib/session/session.ts';

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
 * active entity; `onEvent` hears every `beacon_event`. A refused handshake (an expired token the
 * API client is about to refresh) is retried with the token of the moment.
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
    let retry: ReturnType<typeof setTimeout> | undefined;
    const socket = io(BEACON_NAMESPACE, {
      auth: (cb) => cb({ token: session.getSnapshot().accessToken, entity }),
      transports: ['websocket', 'polling'],
    });
    socketRef.current = socket;
    const later = () => {
      clearTimeout(retry);
      retry = setTimeout(() => socket.connect(), RETRY_MS);
    };
    socket.on(BEACON_SOCKET_EVENTS.connectionResponse, () => setConnected(true));
    socket.on('disconnect', (reason) => {
      setConnected(false);
      // The server ended it (session over, server restart): the client does not retry by itself.
      if (reason === 'io server disconnect') later();
    });
    socket.on('connect_error', () => {
      setConnected(false);
      if (!socket.active) later();
    });
    socket.on(BEACON_SOCKET_EVENTS.beaconEvent, (raw: unknown) => {
      const parsed = BeaconEventSchema.safeParse(raw);
      if (!parsed.success) return;
      setFeed((list) => [parsed.data, ...list].slice(0, BEACON_FEED_SIZE));
      onEventRef.current(parsed.data);
    });
    return () => {
      clearTimeout(retry);
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
