import { describe, expect, it } from 'vitest';
import { FlushLoop, type TakeBatch, type Timers } from './flush-loop.ts';

/** Timers that fire only when the test moves the clock. */
function manualTimers() {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      due.set(++next, { at: now + ms, fn });
      return next;
    },
    clearTimeout: (handle) => void due.delete(handle as number),
  };
  return {
    timers,
    armed: () => due.size,
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...due].sort(([, a], [, b]) => a.at - b.at))
        if (t.at <= now) {
          due.delete(id);
          t.fn();
        }
    },
  };
}

/** A promise the test resolves when it likes. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A loop over a list of strings that records each write; `hold` keeps the next write running until opened. */
function harness(take: TakeBatch, maxBatch?: number) {
  const clock = manualTimers();
  let pending: string[] = [];
  const writes: string[][] = [];
  const errors: unknown[] = [];
  let running = 0;
  let overlapped = false;
  let hold: ReturnType<typeof gate> | null = null;
  let fail: Error | null = null;
  const loop = new FlushLoop<string[]>({
    take,
    intervalMs: 50,
    maxBatch,
    collect: () => {
      if (pending.length === 0) return undefined;
      const batch = pending;
      pending = [];
      return batch;
    },
    write: async (batch) => {
      if (++running > 1) overlapped = true;
      const held = hold;
      hold = null;
      try {
        if (held) await held.promise;
        if (fail) throw fail;
        writes.push(batch);
      } finally {
        running--;
      }
    },
    onError: (err) => errors.push(err),
    timers: clock.timers,
  });
  return {
    loop,
    clock,
    writes,
    errors,
    overlapped: () => overlapped,
    add(...items: string[]) {
      pending.push(...items);
      loop.added(pending.length);
    },
    holdNext() {
      hold = gate();
      return hold;
    },
    failWith(err: Error | null) {
      fail = err;
    },
  };
}

/** A write of 'a' started and held running, with 'b' added behind it; resolve the result to let the write end. */
async function writingA(h: ReturnType<typeof harness>) {
  const first = h.holdNext();
  h.add('a');
  void h.loop.flush();
  await tick();
  h.add('b');
  return first;
}

/** Whether a promise is still pending once the microtasks and I/O callbacks queued now have run. */
async function stillPending(promise: Promise<unknown>) {
  let done = false;
  void promise.then(() => (done = true));
  await tick();
  return !done;
}

describe('FlushLoop', () => {
  it('writes what was added once the interval has passed, not before', async () => {
    const h = harness('when-called');
    h.add('a');
    h.clock.advance(20);
    h.add('b');
    h.clock.advance(29);
    await tick();
    expect(h.writes).toEqual([]);
    h.clock.advance(1);
    await h.loop.settled();
    expect(h.writes).toEqual([['a', 'b']]);
    expect(h.clock.armed()).toBe(0);
  });

  it('writes at once when maxBatch items are pending, without waiting for the timer', async () => {
    const h = harness('when-called', 3);
    h.add('a', 'b');
    h.add('c');
    await h.loop.settled();
    expect(h.writes).toEqual([['a', 'b', 'c']]);
    expect(h.clock.armed()).toBe(0);
  });

  it('when-called: each flush takes what is pending at the call, queued behind the write in progress', async () => {
    const h = harness('when-called');
    const first = h.holdNext();
    h.add('a');
    void h.loop.flush();
    h.add('b');
    void h.loop.flush();
    h.add('c');
    const last = h.loop.flush();
    first.open();
    await last;
    expect(h.writes).toEqual([['a'], ['b'], ['c']]);
    expect(h.overlapped()).toBe(false);
  });

  it('when-flush-starts: what arrives during a write gathers into one next write', async () => {
    const h = harness('when-flush-starts');
    const first = await writingA(h);
    void h.loop.flush();
    h.add('c');
    const last = h.loop.flush();
    first.open();
    await last;
    expect(h.writes).toEqual([['a'], ['b', 'c']]);
    expect(h.overlapped()).toBe(false);
  });

  it('flush() resolves only once what was pending, and the write before it, are written', async () => {
    for (const take of ['when-called', 'when-flush-starts'] as const) {
      const h = harness(take);
      const first = await writingA(h);
      const flushed = h.loop.flush();
      expect(await stillPending(flushed), take).toBe(true);
      first.open();
      await flushed;
      expect(h.writes, take).toEqual([['a'], ['b']]);
    }
  });

  it('reports a failed write and goes on with the next one', async () => {
    const h = harness('when-called');
    const refused = new Error('refused');
    h.failWith(refused);
    h.add('a');
    await h.loop.flush();
    h.failWith(null);
    h.add('b');
    await h.loop.flush();
    expect(h.errors).toEqual([refused]);
    expect(h.writes).toEqual([['b']]);
  });

  it('close while a flush runs waits for it, writes what is left, and arms no timer after', async () => {
    for (const take of ['when-called', 'when-flush-starts'] as const) {
      const h = harness(take);
      const first = await writingA(h);
      const closing = h.loop.close();
      expect(await stillPending(closing), take).toBe(true);
      first.open();
      await closing;
      expect(h.writes, take).toEqual([['a'], ['b']]);
      h.add('c');
      expect(h.clock.armed(), take).toBe(0);
      await h.loop.flush();
      expect(h.writes.at(-1), take).toEqual(['c']);
    }
  });
});
