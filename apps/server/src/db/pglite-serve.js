// @ts-check
// PGlite served over the PostgreSQL protocol on a socket (the embedded database's thread,
// pglite-worker.js): the framing of what a client sends, and one client's exchange with PGlite.
import net from 'node:net';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
/** Terminate ('X'): ends this connection, not the database. */
const TERMINATE = 0x58;
const SYNC = 0x53;
const QUERY = 0x51;

/**
 * Cuts what a client sends into whole protocol messages, however the bytes arrive: the startup
 * phase (length-prefixed, no type byte: SSL request, cancel, startup), then typed messages.
 */
export class ProtocolFramer {
  /** @type {Buffer} */
  buffer = Buffer.alloc(0);
  /** Chunks of a message longer than what has arrived, joined once it is whole (a large query
   * arrives in many chunks: joining at each one would copy it over and over). */
  /** @type {Buffer[]} */
  parts = [];
  partsLength = 0;
  awaited = 0;
  started = false;

  /**
   * The messages that `chunk` completes, in order; `ssl` counts SSL requests (answered 'N');
   * `broken` when a length is impossible (the connection is to be ended).
   * @param {Buffer} chunk
   * @returns {{ messages: Buffer[], ssl: number, broken: boolean }}
   */
  push(chunk) {
    /** @type {Buffer[]} */
    const messages = [];
    let ssl = 0;
    if (this.awaited > 0) {
      this.parts.push(chunk);
      this.partsLength += chunk.length;
      if (this.partsLength < this.awaited) return { messages, ssl, broken: false };
      this.buffer = Buffer.concat(this.parts, this.partsLength);
      this.parts = [];
      this.partsLength = 0;
      this.awaited = 0;
    } else this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const buffer = this.buffer;
      if (!this.started) {
        if (buffer.length < 8) break;
        const length = buffer.readInt32BE(0);
        if (length < 8) return { messages, ssl, broken: true };
        if (buffer.length < length) break;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        this.buffer = buffer.subarray(length);
        if (code === SSL_REQUEST) ssl++;
        else if (code !== CANCEL_REQUEST) {
          if (code === PROTOCOL_3) this.started = true;
          messages.push(message);
        }
        continue;
      }
      if (buffer.length < 5) break;
      const length = 1 + buffer.readInt32BE(1);
      if (length < 5) return { messages, ssl, broken: true };
      if (buffer.length < length) {
        this.awaited = length;
        this.parts = [buffer];
        this.partsLength = buffer.length;
        this.buffer = Buffer.alloc(0);
        break;
      }
      const message = buffer.subarray(0, length);
      this.buffer = buffer.subarray(length);
      if (message[0] !== TERMINATE) messages.push(message);
    }
    return { messages, ssl, broken: false };
  }
}

/**
 * What of PGlite the server uses (a stand-in in tests).
 * @typedef {{
 *   execProtocolRawStream(message: Uint8Array, o: { onRawData: (out: Uint8Array) => void }): Promise<unknown>,
 *   isInTransaction(): boolean,
 *   exec(query: string): Promise<unknown>,
 * }} ProtocolDb
 */

/**
 * One client at a time (the main thread's pool holds a single connection, as PGlite is a single
 * session): its messages are framed and handed to PGlite one by one, the answers streamed back.
 * `drained()` resolves once everything handed over so far is answered.
 * @param {ProtocolDb} db
 */
export function serve(db) {
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();
  // Whether the last message handed over ended an exchange (a simple Query, or the Sync closing
  // an extended one): only then may something else use the session without cutting into it.
  let atBoundary = true;
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    const framer = new ProtocolFramer();
    socket.on('data', (chunk) => {
      const { messages, ssl, broken } = framer.push(chunk);
      for (let i = 0; i < ssl; i++) socket.write('N');
      if (broken) return void socket.destroy();
      // The answers to what arrived together leave together: one write, not one per row.
      if (messages.length > 0) queue = queue.then(() => socket.cork());
      for (const message of messages) {
        const copy = new Uint8Array(message);
        queue = queue.then(() => {
          atBoundary = copy[0] === SYNC || copy[0] === QUERY || copy[0] === 0; // 0: the startup message
          return (
            db
              // `out` is a view into the WASM heap that PGlite reuses (and that memory growth detaches):
              // a large answer the socket cannot take at once would be sent from overwritten memory.
              .execProtocolRawStream(copy, {
                onRawData: (out) => void (socket.writable && socket.write(Buffer.from(out))),
              })
              .catch(() => {
                // PostgreSQL's own errors arrive as protocol messages; an exception here means the
                // exchange is broken: the client sees its connection end instead of waiting forever.
                socket.destroy();
              })
          );
        });
      }
      if (messages.length > 0) queue = queue.then(() => socket.uncork());
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      // A client gone mid-transaction leaves nothing open behind it.
      queue = queue.then(async () => {
        atBoundary = true;
        if (db.isInTransaction()) await db.exec('rollback').catch(() => undefined);
      });
    });
  });
  /**
   * Runs `fn` between two of the client's protocol messages and outside any transaction of its
   * (waiting for the one open to end), with nothing else running meanwhile: a backup's snapshot.
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  const whenIdle = (fn) =>
    new Promise((resolve, reject) => {
      const attempt = () => {
        queue = queue.then(async () => {
          if (!atBoundary || db.isInTransaction()) return void setTimeout(attempt, 1);
          await fn().then(resolve, reject);
        });
      };
      attempt();
    });
  return { server, drained: () => queue, whenIdle };
}
