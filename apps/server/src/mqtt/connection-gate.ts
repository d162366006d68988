import type { Socket } from 'node:net';
import { guardPackets } from './packet-guard.ts';

export interface GateLimits {
  /** Sockets open at once without a completed sign-in, all addresses together. */
  maxPending: number;
  /** The same, from one address. */
  maxPendingPerAddress: number;
  /** A socket not signed in this long after it opened is destroyed. */
  connectTimeoutMs: number;
}

/** What the gate counts, for `GET /readyz` and the tests. */
export interface GateStats {
  refused_pending: number;
  timed_out: number;
  oversized: number;
}

/**
 * Who may hold a socket on the embedded broker before signing in: at most `maxPending` such
 * sockets (and `maxPendingPerAddress` from one address), each for at most `connectTimeoutMs`,
 * each reading at most a CONNECT's worth of bytes; every packet's size is checked for as long as
 * the socket lives (packet-guard.ts). A refused socket is destroyed at once, before the broker
 * sees it.
 */
export class ConnectionGate {
  private pending = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly signIns = new WeakMap<Socket, () => void>();
  readonly stats: GateStats = { refused_pending: 0, timed_out: 0, oversized: 0 };

  constructor(private readonly limits: GateLimits) {}

  /**
   * Takes a new socket: refused (destroyed) when it is one too many, else handed to `handle` (the
   * broker) and its packets guarded from then on.
   */
  take(socket: Socket, handle: (socket: Socket) => void): void {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.byAddress.get(address) ?? 0;
    if (this.pending >= this.limits.maxPending || fromAddress >= this.limits.maxPendingPerAddress) {
      this.stats.refused_pending++;
      socket.destroy();
      return;
    }
    this.pending++;
    this.byAddress.set(address, fromAddress + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      clearTimeout(timer);
      this.pending--;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    };
    const timer = setTimeout(() => {
      this.stats.timed_out++;
      release();
      socket.destroy();
    }, this.limits.connectTimeoutMs);
    timer.unref();
    socket.once('close', release);
    handle(socket);
    const guard = guardPackets(socket, () => this.stats.oversized++);
    this.signIns.set(socket, () => {
      guard.signedIn();
      release();
    });
  }

  /** The socket's device signed in: it no longer counts against the unauthenticated limits. */
  signedIn(socket: Socket): void {
    this.signIns.get(socket)?.();
    this.signIns.delete(socket);
  }
}
