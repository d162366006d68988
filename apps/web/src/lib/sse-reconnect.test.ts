import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeAccessToken } from './session/test-tokens.ts';
import { openEventStream, type EventStreamOptions } from './sse.ts';

// The stream's reconnection rules with fetch stubbed and the clock faked: pauses are asserted to
// the millisecond and no test waits for one.
const NOW = 1_800_000_000_000;
const TOKEN = makeAccessToken(NOW, 900_000);

/** A 200 event stream that sends `blocks` and then ends. */
function stream(blocks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const b of blocks) controller.enqueue(new TextEncoder().encode(`${b}\n\n`));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

type Answer = Response | Error;

/** Opens a stream whose connections are answered by `answers` in turn (the last one repeats). */
function open(answers: Answer[], options: Partial<EventStreamOptions> = {}) {
  const calls: Array<{ at: number; headers: Record<string, string> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      calls.push({ at: Date.now() - NOW, headers: init?.headers as Record<string, string> });
      const answer = answers[Math.min(calls.length, answers.length) - 1]!;
      if (answer instanceof Error) throw answer;
      return answer.clone();
    }),
  );
  const events: string[] = [];
  const failures: Array<[string, number | undefined]> = [];
  const s = openEventStream({
    url: '/api/v1/tenant/acme/provision/d1/events',
    token: () => TOKEN,
    renew: async () => false,
    onEvent: (e) => events.push(`${e.event} ${e.id}`),
    onFailure: (reason, status) => failures.push([reason, status]),
    isFinal: (e) => e.event === 'done',
    now: () => Date.now(),
    ...options,
  });
  return { calls, events, failures, close: () => s.close(), lastEventId: () => s.lastEventId() };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('openEventStream reconnecting', () => {
  it('resumes a dropped stream after its last event, pausing 1, 2, 4, 8 and then 10 s, and gives up as lost', async () => {
    const s = open([stream(['id: s:0\nevent: connection\ndata: {}', 'id: s:1\nevent: x\ndata: 1']), new Error('down')]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.events).toEqual(['connection s:0', 'x s:1']);
    expect(s.calls.map((c) => c.at)).toEqual([0, 1_000, 3_000, 7_000, 15_000, 25_000]);
    expect(s.calls[0]!.headers).toEqual({ Accept: 'text/event-stream', Authorization: `Bearer ${TOKEN}` });
    for (const c of s.calls.slice(1)) expect(c.headers).toMatchObject({ 'Last-Event-ID': 's:1' });
    expect(s.failures).toEqual([['lost', undefined]]);
  });

  it('starts the pauses over once an event gets through', async () => {
    const s = open([
      new Error('down'),
      new Error('down'),
      stream(['id: s:5\nevent: x\ndata: 1']),
      new Error('down'),
      stream(['id: s:6\nevent: done\ndata: {}']),
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    // 1 s, 2 s, then the stream ends: 1 s again (not 4), then 2 s.
    expect(s.calls.map((c) => c.at)).toEqual([0, 1_000, 3_000, 4_000, 6_000]);
    expect(s.events).toEqual(['x s:5', 'done s:6']);
    expect(s.failures).toEqual([]);
  });

  it('resumes after the id it was given on its first connection', async () => {
    const s = open([stream(['id: s:9\nevent: done\ndata: {}'])], { lastEventId: 's:8' });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.calls[0]!.headers).toMatchObject({ 'Last-Event-ID': 's:8' });
    expect(s.lastEventId()).toBe('s:9');
  });

  it('retries a 5xx after a pause and stops at a 4xx as refused', async () => {
    const s = open([new Response(null, { status: 503 }), new Response(null, { status: 404 })]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls.map((c) => c.at)).toEqual([0, 1_000]);
    expect(s.failures).toEqual([['refused', 404]]);
  });
});

describe('openEventStream and its final event', () => {
  it('stops after the final event: no reconnection, no failure', async () => {
    const s = open([
      stream(['id: s:0\nevent: connection\ndata: {}', 'id: s:1\nevent: done\ndata: {}', 'id: s:2\nevent: x\ndata: 1']),
    ]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls).toHaveLength(1);
    expect(s.events).toEqual(['connection s:0', 'done s:1']);
    expect(s.failures).toEqual([]);
  });

  it('calls nothing back once closed', async () => {
    const s = open([stream(['id: s:0\nevent: x\ndata: 1']), new Error('down')]);
    await vi.advanceTimersByTimeAsync(0);
    s.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls).toHaveLength(1);
    expect(s.failures).toEqual([]);
  });
});

describe('openEventStream answered 401', () => {
  it('renews once and retries at once with the new token', async () => {
    let token = makeAccessToken(NOW - 900_000, 900_000);
    const fresh = makeAccessToken(NOW, 900_000);
    const renew = vi.fn(async () => {
      token = fresh;
      return true;
    });
    const s = open([new Response(null, { status: 401 }), stream(['id: s:0\nevent: done\ndata: {}'])], {
      token: () => token,
      renew,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(renew).toHaveBeenCalledOnce();
    expect(s.calls.map((c) => [c.at, c.headers.Authorization])).toEqual([
      [0, `Bearer ${makeAccessToken(NOW - 900_000, 900_000)}`],
      [0, `Bearer ${fresh}`],
    ]);
    expect(s.events).toEqual(['done s:0']);
  });

  it('is refused when the renewed token is answered 401 too, without renewing again', async () => {
    const renew = vi.fn(async () => true);
    let n = 0;
    const s = open([new Response(null, { status: 401 })], { token: () => `t${n++}`, renew });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls).toHaveLength(2);
    expect(s.failures).toEqual([['refused', 401]]);
  });

  it('is refused at once when the session cannot renew', async () => {
    const s = open([new Response(null, { status: 401 })], { renew: async () => false });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls).toHaveLength(1);
    expect(s.failures).toEqual([['refused', 401]]);
  });
});
