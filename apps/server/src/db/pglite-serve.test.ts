import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ProtocolFramer, serve } from './pglite-serve.js';

/** A startup-phase message: length, code, body. */
function startup(code: number, body = Buffer.alloc(0)) {
  const b = Buffer.alloc(8 + body.length);
  b.writeInt32BE(8 + body.length, 0);
  b.writeInt32BE(code, 4);
  body.copy(b, 8);
  return b;
}
/** A typed message: type byte, length (including itself), body. */
function typed(type: string, body: string) {
  const payload = Buffer.from(body);
  const b = Buffer.alloc(5 + payload.length);
  b.write(type, 0);
  b.writeInt32BE(4 + payload.length, 1);
  payload.copy(b, 5);
  return b;
}
const SSL = startup(80877103);
const START = startup(196608, Buffer.from('user\0fleet\0\0'));
const QUERY = typed('Q', 'select 1\0');
const SYNC = typed('S', '');
const TERMINATE = typed('X', '');

/** Feeds the bytes in the given pieces; answers every message and the SSL requests seen. */
function feed(pieces: Buffer[]) {
  const framer = new ProtocolFramer();
  const messages: string[] = [];
  let ssl = 0;
  let broken = false;
  for (const piece of pieces) {
    const r = framer.push(piece);
    messages.push(...r.messages.map((m) => m.toString('hex')));
    ssl += r.ssl;
    broken ||= r.broken;
  }
  return { messages, ssl, broken };
}

describe('ProtocolFramer', () => {
  const stream = Buffer.concat([SSL, START, QUERY, SYNC, TERMINATE]);
  const expected = [START, QUERY, SYNC].map((m) => m.toString('hex'));

  it('cuts a whole stream into its messages: SSL answered, terminate not passed on', () => {
    expect(feed([stream])).toEqual({ messages: expected, ssl: 1, broken: false });
  });

  it('gives the same messages whichever byte the stream is split at', () => {
    for (let at = 1; at < stream.length; at++) {
      expect(feed([stream.subarray(0, at), stream.subarray(at)]), `split at ${at}`).toEqual({
        messages: expected,
        ssl: 1,
        broken: false,
      });
    }
  });

  it('gives the same messages a byte at a time', () => {
    expect(feed([...stream].map((b) => Buffer.from([b])))).toEqual({ messages: expected, ssl: 1, broken: false });
  });

  it('joins a long message sent in many pieces', () => {
    const long = typed('Q', `select '${'x'.repeat(100_000)}'\0`);
    const pieces = [START];
    for (let at = 0; at < long.length; at += 4096) pieces.push(long.subarray(at, at + 4096));
    expect(feed(pieces).messages).toEqual([START, long].map((m) => m.toString('hex')));
  });

  it('ignores a cancel request and calls an impossible length broken', () => {
    expect(feed([startup(80877102), START]).messages).toEqual([START.toString('hex')]);
    const bad = Buffer.alloc(8);
    bad.writeInt32BE(4, 0);
    expect(feed([bad]).broken).toBe(true);
    expect(feed([START, Buffer.from([0x51, 0, 0, 0, 2])]).broken).toBe(true);
  });
});

describe('serve', () => {
  /** A stand-in for PGlite that records what it is handed and whether it rolled back. */
  function fakeDb(inTransaction: boolean) {
    const handed: string[] = [];
    const execs: string[] = [];
    return {
      handed,
      execs,
      db: {
        execProtocolRawStream: async (m: Uint8Array, o: { onRawData: (out: Uint8Array) => void }) => {
          handed.push(String.fromCharCode(m[0]!));
          o.onRawData(Buffer.from('Z'));
        },
        isInTransaction: () => inTransaction,
        exec: async (q: string) => void execs.push(q),
      },
    };
  }

  async function connect(server: net.Server) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const socket = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  }

  it('answers SSL with N, hands each message to the database in order, and streams its answers', async () => {
    const { db, handed } = fakeDb(false);
    const { server, drained } = serve(db);
    const socket = await connect(server);
    const answers: Buffer[] = [];
    socket.on('data', (d) => answers.push(d));
    socket.write(Buffer.concat([SSL, START]));
    socket.write(Buffer.concat([QUERY, SYNC]));
    await new Promise<void>((resolve) => {
      const check = () => (Buffer.concat(answers).toString() === 'NZZZ' ? resolve() : setImmediate(check));
      check();
    });
    await drained();
    expect(handed).toEqual(['\0', 'Q', 'S']);
    socket.destroy();
    server.close();
  });

  it('rolls back a transaction its client left open when the client goes away', async () => {
    const { db, execs } = fakeDb(true);
    const { server, drained } = serve(db);
    const socket = await connect(server);
    socket.write(START);
    socket.destroy();
    await new Promise<void>((resolve) => {
      const check = () => (execs.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    await drained();
    expect(execs).toEqual(['rollback']);
    server.close();
  });
});
