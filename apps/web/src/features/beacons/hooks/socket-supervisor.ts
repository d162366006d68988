import { BEACON_SOCKET_EVENTS, LIVE_END_REASONS, type LiveEndReason } from '@fleet/shared/beacon-constants';

/** The part of a socket.io-client `Socket` the supervisor drives. */
export interface SupervisedSocket {
  /** True while the client itself will reconnect (a transport dropped); false after a refusal. */
  readonly active: boolean;
  connect(): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners of different events take different arguments
  on(event: string, listener: (...args: any[]) => void): unknown;
}

export interface SupervisorOptions {
  /** The access token the last handshake carried. */
  usedToken(): string | null;
  /** The session's access token now. */
  currentToken(): string | null;
  /** Renews the session's access token: resolves whether a fresh one is available. */
  renew(): Promise<boolean>;
  onConnected(connected: boolean): void;
  /** Pause before trying again after the server dropped or refused the socket for another reason. */
  retryMs: number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

const isEndReason = (v: unknown): v is LiveEndReason => LIVE_END_REASONS.includes(v as LiveEndReason);

/**
 * Keeps the `/beacon-demo` socket connected as long as the session lasts. The server ends a socket
 * when its access token expires (`connection_ended` `token_expired`) and refuses a handshake with
 * an expired one (401): the socket then connects again at once with the session's newer token,
 * renewing it first if the refused one is still the newest. A socket whose right was revoked stays
 * closed (the API client signs the session out on its next call); other server disconnects and
 * refusals are retried after `retryMs`.
 */
export function superviseSocket(socket: SupervisedSocket, o: SupervisorOptions): { dispose(): void } {
  const schedule = o.setTimeout ?? ((callback, ms) => setTimeout(callback, ms));
  const cancel = o.clearTimeout ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let ended: LiveEndReason | null = null;
  let renewed = false;
  let retry: unknown;
  let disposed = false;

  const later = () => {
    cancel(retry);
    retry = schedule(() => void socket.connect(), o.retryMs);
  };
  /** Connects with a token newer than the refused one, renewing once if there is none yet. */
  const resume = () => {
    if (o.currentToken() !== o.usedToken()) return void socket.connect();
    // Renewed already and refused again: no tight loop, try again later.
    if (renewed) return later();
    renewed = true;
    o.renew().then(
      (fresh) => {
        if (fresh && !disposed) socket.connect();
      },
      () => undefined,
    );
  };

  socket.on(BEACON_SOCKET_EVENTS.connectionResponse, () => {
    renewed = false;
    o.onConnected(true);
  });
  socket.on(BEACON_SOCKET_EVENTS.connectionEnded, (message: { reason?: unknown } | undefined) => {
    ended = isEndReason(message?.reason) ? message.reason : null;
  });
  socket.on('disconnect', (reason: string) => {
    o.onConnected(false);
    const why = ended;
    ended = null;
    // Any other reason: the client reconnects by itself.
    if (reason !== 'io server disconnect') return;
    if (why === 'token_expired') resume();
    else if (why === null) later();
  });
  socket.on('connect_error', (err: { data?: { code?: unknown } } | undefined) => {
    o.onConnected(false);
    if (socket.active) return;
    if (err?.data?.code === 401) resume();
    else later();
  });
  return {
    dispose() {
      disposed = true;
      cancel(retry);
    },
  };
}
