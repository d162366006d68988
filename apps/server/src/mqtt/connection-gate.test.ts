import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionGate, type GateLimits } from './connection-gate.ts';
import { MAX_UNAUTHENTICATED_BYTES } from './packet-guard.ts';

/** The part of a socket the gate uses; like a real one, it says `close` once destroyed. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('close');
  }
}

const LIMITS: GateLimits = { maxPending: 4, maxPendingPerAddress: 2, connectTimeoutMs: 10_000 };

function gateWith(limits: Partial<GateLimits> = {}) {
  const gate = new ConnectionGate({ ...LIMITS, ...limits });
  const handled: FakeSocket[] = [];
  /** A new socket from `address`, offered to the gate; `handled` holds those the broker got. */
  const open = (address = '10.0.0.1') => {
    const socket = new FakeSocket(address);
    gate.take(socket as unknown as Socket, (s) => handled.push(s as unknown as FakeSocket));
    return socket;
  };
  const signIn = (socket: FakeSocket) => gate.signedIn(socket as unknown as Socket);
  return { gate, handled, open, signIn };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionGate: caps on sockets not signed in', () => {
  it('refuses the socket past maxPending, all addresses together, before the broker sees it', () => {
    const { gate, handled, open } = gateWith({ maxPending: 3, maxPendingPerAddress: 10 });
    const taken = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((a) => open(a));
    const refused = open('10.0.0.4');
    expect(taken.map((s) => s.destroyed)).toEqual([false, false, false]);
    expect(refused.destroyed).toBe(true);
    expect(handled).toEqual(taken);
    expect(gate.stats.refused_pending).toBe(1);
  });

  it('refuses the socket past maxPendingPerAddress from one address while others still get in', () => {
    const { gate, open } = gateWith({ maxPending: 10, maxPendingPerAddress: 2 });
    expect([open('10.0.0.1'), open('10.0.0.1'), open('10.0.0.1'), open('10.0.0.2')].map((s) => s.destroyed)).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect(gate.stats.refused_pending).toBe(1);
  });

  // Each way a socket stops counting: it closes, signs in, or times out.
  const releases: Array<[string, (s: FakeSocket, signIn: (s: FakeSocket) => void) => void]> = [
    ['closes', (s) => s.destroy()],
    ['signs in', (s, signIn) => signIn(s)],
    // The second socket opened 1 s later, so only the first times out.
    ['times out', () => vi.advanceTimersByTime(LIMITS.connectTimeoutMs - 1_000)],
  ];
  for (const [how, release] of releases) {
    it(`frees its place, overall and for its address, once a socket ${how}`, () => {
      const { gate, open, signIn } = gateWith({ maxPending: 2, maxPendingPerAddress: 2 });
      const first = open('10.0.0.1');
      vi.advanceTimersByTime(1_000);
      open('10.0.0.1');
      expect(open('10.0.0.2').destroyed).toBe(true);
      release(first, signIn);
      expect(open('10.0.0.1').destroyed).toBe(false);
      // Released once only: the caps hold again.
      expect(open('10.0.0.1').destroyed).toBe(true);
      expect(open('10.0.0.3').destroyed).toBe(true);
      expect(gate.stats.refused_pending).toBe(3);
    });
  }

  it('releases a socket once however many of close, sign-in and time-out happen to it', () => {
    const { open, signIn } = gateWith({ maxPending: 2, maxPendingPerAddress: 2 });
    const a = open();
    signIn(a);
    signIn(a);
    a.destroy();
    const b = open();
    vi.advanceTimersByTime(LIMITS.connectTimeoutMs); // b times out, then closes
    b.emit('close');
    // Two places again, not three or four.
    expect([open(), open(), open()].map((s) => s.destroyed)).toEqual([false, false, true]);
  });
});

describe('ConnectionGate: time to sign in', () => {
  it('destroys a socket not signed in connectTimeoutMs after it opened, and counts it', () => {
    const { gate, open } = gateWith();
    const s = open();
    vi.advanceTimersByTime(LIMITS.connectTimeoutMs - 1);
    expect(s.destroyed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(s.destroyed).toBe(true);
    expect(gate.stats.timed_out).toBe(1);
  });

  it('leaves a signed-in socket open past the time-out, and a closed one uncounted', () => {
    const { gate, open, signIn } = gateWith();
    const signedIn = open();
    signIn(signedIn);
    open().destroy();
    vi.advanceTimersByTime(10 * LIMITS.connectTimeoutMs);
    expect(signedIn.destroyed).toBe(false);
    expect(gate.stats.timed_out).toBe(0);
  });
});

describe('ConnectionGate: packets', () => {
  it('guards every taken socket: an oversized header destroys it, is counted and frees its place', () => {
    const { gate, open } = gateWith({ maxPending: 1 });
    const s = open();
    s.emit('data', Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]));
    expect(s.destroyed).toBe(true);
    expect(gate.stats.oversized).toBe(1);
    expect(open().destroyed).toBe(false);
  });

  it('lifts the unauthenticated byte limit of a socket once it signs in', () => {
    const { open, signIn } = gateWith();
    const pingreqs = Buffer.alloc(MAX_UNAUTHENTICATED_BYTES, Buffer.from([0xc0, 0x00]));
    const before = open();
    before.emit('data', pingreqs);
    before.emit('data', pingreqs);
    expect(before.destroyed).toBe(true);

    const after = open();
    signIn(after);
    after.emit('data', pingreqs);
    after.emit('data', pingreqs);
    expect(after.destroyed).toBe(false);
  });
});
