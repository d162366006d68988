import type net from 'node:net';
import { Duplex } from 'node:stream';

/**
 * A device's TCP link to the broker, between mqtt.js and the socket, that can die the way a hung
 * or powerless device's does: after `hang()` nothing more is written or read, and the socket is
 * neither ended nor reset, so the broker sees no DISCONNECT and no FIN. It ends the connection only
 * when the device's keepalive runs out (1.5× it), and publishes the Last Will; the socket then
 * closes. mqtt.js is told the link closed, so it lets it go (and `end(true)` keeps it from
 * reconnecting).
 */
export class SeverableLink {
  readonly stream: Duplex;
  private hung = false;

  constructor(private readonly socket: net.Socket) {
    this.stream = new Duplex({
      read: () => void socket.resume(),
      write: (chunk: Buffer, encoding, done) => {
        if (this.hung) return done();
        socket.write(chunk, encoding, done);
      },
      final: (done) => {
        if (!this.hung) socket.end();
        done();
      },
      destroy: (err, done) => {
        if (!this.hung) socket.destroy();
        done(err);
      },
    });
    socket.on('data', (chunk: Buffer) => {
      if (!this.hung && !this.stream.push(chunk)) socket.pause();
    });
    socket.on('end', () => this.stream.push(null));
    socket.on('close', () => this.stream.destroy());
    socket.on('error', (err) => this.stream.destroy(err));
  }

  /** The device hangs: silent from now on; the socket stays open until the broker closes it. */
  hang(): void {
    this.hung = true;
    // What the broker still sends is read and dropped, so its close is seen and the socket freed.
    this.socket.resume();
  }

  /** Frees the socket at once (the simulated device is stopped). */
  destroy(): void {
    this.socket.destroy();
  }

  get closed(): boolean {
    return this.socket.destroyed;
  }
}

/** The broker's TCP address for `url` (mqtt: or tcp:), or null for another transport. */
export function tcpAddress(url: string): { host: string; port: number } | null {
  const u = new URL(url);
  if (u.protocol !== 'mqtt:' && u.protocol !== 'tcp:') return null;
  return { host: u.hostname, port: Number(u.port) || 1883 };
}
