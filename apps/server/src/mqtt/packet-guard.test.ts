import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_PACKET_BYTES, MAX_UNAUTHENTICATED_BYTES, guardPackets } from './packet-guard.ts';

/** The part of a socket the guard uses: `data` events, `removeListener` and `destroy`. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

/** A guarded socket, how often the guard refused it, and a way to feed it chunks. */
function guarded(signedIn = false) {
  const socket = new FakeSocket();
  let refusals = 0;
  const guard = guardPackets(socket as unknown as Socket, () => refusals++);
  if (signedIn) guard.signedIn();
  return {
    socket,
    guard,
    refusals: () => refusals,
    send: (...chunks: Buffer[]) => chunks.forEach((chunk) => socket.emit('data', chunk)),
  };
}

/** MQTT's remaining length: 7 bits a byte, least significant first, the top bit set on all but the last. */
function remainingLength(length: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return bytes;
}

/**
 * A PUBLISH whose body is all 0xff: were the guard to read a body byte as a header it would find a
 * malformed length at once, so "not refused" proves the body was skipped to the byte.
 */
const packet = (length: number, header = remainingLength(length)) =>
  Buffer.concat([Buffer.from([0x30, ...header]), Buffer.alloc(length, 0xff)]);

/** The probe's CONNECT header: 268,435,455 bytes announced. */
const HUGE_CONNECT = Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]);
/** A fifth length byte: the fourth carries a continuation bit, though the value is 0 (not oversized). */
const FIVE_LENGTH_BYTES = Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x00]);
const PINGREQ = Buffer.from([0xc0, 0x00]);

/** The largest remaining length a packet of MAX_PACKET_BYTES can announce (3 length bytes). */
const LARGEST = MAX_PACKET_BYTES - 1 - 3;

/** Every way to cut `stream` in two, plus byte by byte. */
function splits(stream: Buffer): Array<[string, Buffer[]]> {
  const cuts: Array<[string, Buffer[]]> = [];
  for (let at = 0; at <= stream.length; at++)
    cuts.push([`cut at ${at}`, [stream.subarray(0, at), stream.subarray(at)]]);
  cuts.push(['byte by byte', [...stream].map((b) => Buffer.from([b]))]);
  return cuts;
}

describe('guardPackets: reading the fixed header', () => {
  // Small bodies so every cut of the stream can be tried; the trailing header that must be found
  // proves the guard is at the right byte after the packets before it.
  const cases: Array<{ name: string; stream: Buffer; refused: boolean }> = [
    { name: '1 length byte (0), then PINGREQ', stream: Buffer.concat([packet(0), PINGREQ]), refused: false },
    { name: 'PINGREQ, then an oversized header', stream: Buffer.concat([PINGREQ, HUGE_CONNECT]), refused: true },
    { name: '1 length byte (127)', stream: packet(127), refused: false },
    { name: '2 length bytes (128)', stream: packet(128), refused: false },
    {
      name: '2 length bytes (300), then an oversized header',
      stream: Buffer.concat([packet(300), HUGE_CONNECT]),
      refused: true,
    },
    { name: '3 length bytes (5, not minimal)', stream: packet(5, [0x85, 0x80, 0x00]), refused: false },
    { name: '4 length bytes (5, not minimal)', stream: packet(5, [0x85, 0x80, 0x80, 0x00]), refused: false },
    {
      name: '4 length bytes, then a fifth',
      stream: Buffer.concat([packet(5, [0x85, 0x80, 0x80, 0x00]), FIVE_LENGTH_BYTES]),
      refused: true,
    },
    { name: 'a fifth length byte', stream: FIVE_LENGTH_BYTES, refused: true },
    { name: '4 length bytes announcing 268,435,455', stream: HUGE_CONNECT, refused: true },
    { name: '4 length bytes announcing 2,097,152', stream: Buffer.from([0x30, 0x80, 0x80, 0x80, 0x01]), refused: true },
  ];

  for (const { name, stream, refused } of cases) {
    it(`${name}: ${refused ? 'refused' : 'passed'} however the stream is cut`, () => {
      for (const [cut, chunks] of splits(stream)) {
        const g = guarded();
        g.send(...chunks);
        expect({ cut, destroyed: g.socket.destroyed, refusals: g.refusals() }).toEqual({
          cut,
          destroyed: refused,
          refusals: refused ? 1 : 0,
        });
      }
    });
  }

  it('reads several packets in one chunk and refuses at the oversized one, before its body', () => {
    const g = guarded(true);
    const small = Buffer.concat([packet(10), PINGREQ, packet(200), packet(0), PINGREQ]);
    g.send(small);
    expect(g.socket.destroyed).toBe(false);
    g.send(Buffer.concat([packet(40), packet(1000), HUGE_CONNECT, Buffer.alloc(1000)]));
    expect(g.socket.destroyed).toBe(true);
    expect(g.refusals()).toBe(1);
    expect(g.socket.listenerCount('data')).toBe(0);
  });

  it('finds a header whose length bytes are split across chunks after a body split across chunks', () => {
    const g = guarded(true);
    const stream = Buffer.concat([packet(20_000), HUGE_CONNECT]);
    // Cuts inside the first header, the body, and the second header.
    g.send(
      stream.subarray(0, 2),
      stream.subarray(2, 9_000),
      stream.subarray(9_000, 20_004),
      stream.subarray(20_004, 20_006),
    );
    expect(g.socket.destroyed).toBe(false);
    g.send(stream.subarray(20_006));
    expect(g.socket.destroyed).toBe(true);
  });
});

describe('guardPackets: packet size', () => {
  it('after sign-in, passes a packet of exactly MAX_PACKET_BYTES and refuses one byte more from its header alone', () => {
    const fits = guarded(true);
    fits.send(packet(LARGEST), PINGREQ);
    expect(fits.socket.destroyed).toBe(false);

    const over = guarded(true);
    over.send(Buffer.from([0x30, ...remainingLength(LARGEST + 1)]));
    expect(over.socket.destroyed).toBe(true);
    expect(over.refusals()).toBe(1);
  });

  it('before sign-in, refuses the same oversized header at once', () => {
    const g = guarded();
    g.send(Buffer.from([0x10, ...remainingLength(LARGEST + 1)]));
    expect(g.socket.destroyed).toBe(true);
  });

  it('before sign-in, allows MAX_UNAUTHENTICATED_BYTES in all and refuses the next byte', () => {
    const g = guarded();
    const stream = packet(LARGEST);
    g.send(
      stream.subarray(0, MAX_UNAUTHENTICATED_BYTES - 100),
      stream.subarray(MAX_UNAUTHENTICATED_BYTES - 100, MAX_UNAUTHENTICATED_BYTES),
    );
    expect(g.socket.destroyed).toBe(false);
    g.send(stream.subarray(MAX_UNAUTHENTICATED_BYTES, MAX_UNAUTHENTICATED_BYTES + 1));
    expect(g.socket.destroyed).toBe(true);
    expect(g.refusals()).toBe(1);
  });

  it('counts small packets towards the unauthenticated total too', () => {
    const g = guarded();
    const chunk = Buffer.concat(Array.from({ length: 64 }, () => packet(126))); // 64 × 128 bytes
    for (let sent = 0; sent + chunk.length <= MAX_UNAUTHENTICATED_BYTES; sent += chunk.length) g.send(chunk);
    expect(g.socket.destroyed).toBe(false);
    g.send(PINGREQ);
    expect(g.socket.destroyed).toBe(true);
  });

  it('after sign-in, no total: many packets of the largest size pass', () => {
    const g = guarded();
    g.send(packet(100));
    g.guard.signedIn();
    for (let i = 0; i < 8; i++) g.send(packet(LARGEST));
    expect(g.socket.destroyed).toBe(false);
  });
});
