// The embedded database's thread: PGlite, served to the server's main thread over the PostgreSQL
// protocol on a private Unix socket, so node-postgres talks to it exactly as to PostgreSQL and
// no query's CPU runs on the event loop that answers requests and MQTT.
import { cpSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { usableTemplate } from './pgdata-template.js';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** @type {import('./pglite-thread.ts').PgliteWorkerData} */
const data = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** @returns {Promise<PGlite>} */
async function open() {
  await fs.mkdir(data.dir, { recursive: true });
  const empty = (await fs.readdir(data.dir)).length === 0;
  const template = empty && data.template ? usableTemplate(data.template, data.migrationsFolder) : undefined;
  // Synchronous: this thread has nothing else to do yet, and 1,000 small files copy 3× faster so.
  if (template) cpSync(template, data.dir, { recursive: true });
  // pg_trgm backs substring search on device ids and descriptions.
  const db = await PGlite.create(data.dir, { extensions: { pg_trgm }, postgresqlconf: data.settings });
  return db;
}

/**
 * One client at a time (the main thread's pool holds a single connection, as PGlite is a single
 * session): its messages are framed and handed to PGlite one by one, the answers streamed back.
 */
/** @type {Promise<unknown>} */
let queue = Promise.resolve();
/** @param {PGlite} db */
function serve(db) {
  return net.createServer((socket) => {
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    /** Chunks of a message longer than what has arrived, joined once it is whole (a large query
     * arrives in many chunks: joining at each one would copy it over and over). */
    /** @type {Buffer[]} */
    let parts = [];
    let partsLength = 0;
    let awaited = 0;
    let started = false;
    socket.on('data', (chunk) => {
      if (awaited > 0) {
        parts.push(chunk);
        partsLength += chunk.length;
        if (partsLength < awaited) return;
        buffer = Buffer.concat(parts, partsLength);
        parts = [];
        partsLength = 0;
        awaited = 0;
      } else buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      /** @type {Buffer[]} */
      const messages = [];
      for (;;) {
        if (!started) {
          if (buffer.length < 8) break;
          const length = buffer.readInt32BE(0);
          if (length < 8) return void socket.destroy();
          if (buffer.length < length) break;
          const code = buffer.readInt32BE(4);
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST) socket.write('N');
          else if (code === CANCEL_REQUEST) continue;
          else {
            if (code === PROTOCOL_3) started = true;
            messages.push(message);
          }
          continue;
        }
        if (buffer.length < 5) break;
        const length = 1 + buffer.readInt32BE(1);
        if (length < 5) return void socket.destroy();
        if (buffer.length < length) {
          awaited = length;
          parts = [buffer];
          partsLength = buffer.length;
          buffer = Buffer.alloc(0);
          break;
        }
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        // Terminate ('X') ends this connection, not the database.
        if (message[0] !== 0x58) messages.push(message);
      }
      // The answers to what arrived together leave together: one write, not one per row.
      if (messages.length > 0) queue = queue.then(() => socket.cork());
      for (const message of messages) {
        const copy = new Uint8Array(message);
        queue = queue.then(() =>
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
            }),
        );
      }
      if (messages.length > 0) queue = queue.then(() => socket.uncork());
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      // A client gone mid-transaction leaves nothing open behind it.
      queue = queue.then(async () => {
        if (db.isInTransaction()) await db.exec('rollback').catch(() => undefined);
      });
    });
  });
}

const db = await open();
const server = serve(db);
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(data.socketPath, () => resolve(undefined));
});
port.postMessage({ ready: true });
port.on('message', async (/** @type {{ close?: boolean }} */ m) => {
  if (!m.close) return;
  server.close();
  // What was sent before the pool ended is answered (and written) first.
  await queue;
  await db.close();
  port.postMessage({ closed: true });
});
