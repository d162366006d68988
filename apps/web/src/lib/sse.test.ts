import { describe, expect, it, vi } from 'vitest';
import { makeAccessToken } from './session/test-tokens.ts';
import { openEventStream, parseBlock } from './sse.ts';

describe('parseBlock', () => {
  it('reads id, event and data, joining data lines', () => {
    expect(parseBlock('id: s:3\nevent: file_updated\ndata: {"a":\ndata: 1}')).toEqual({
      id: 's:3',
      event: 'file_updated',
      data: '{"a":\n1}',
    });
  });

  it('ignores heartbeats (comment lines) and blocks without data', () => {
    expect(parseBlock(': heartbeat')).toBeNull();
    expect(parseBlock('retry: 2000')).toBeNull();
  });
});

/** A 200 event stream that sends `blocks` and then ends, or stays open when `end` is false. */
function streamResponse(blocks: string[], end = true): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const b of blocks) controller.enqueue(new TextEncoder().encode(`${b}\n\n`));
      if (end) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('openEventStream when the server ends a stream at its token’s expiry', () => {
  const NOW = 1_800_000_000_000;
  const first = ['id: s:0\nevent: connection\ndata: {}', 'id: s:1\nevent: file_updated\ndata: {"n":1}'];

  /** A stream whose first connection ends after `first`; the second stays open. Answers its requests. */
  function follow(token: () => string, renew: () => Promise<boolean>) {
    const requests: Array<Record<string, string>> = [];
    const fetchMock = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      requests.push(init?.headers as Record<string, string>);
      return requests.length === 1
        ? streamResponse(first)
        : streamResponse(['id: s:1\nevent: connection\ndata: {}'], false);
    });
    vi.stubGlobal('fetch', fetchMock);
    const events: string[] = [];
    const stream = openEventStream({
      url: '/api/v1/tenant/acme/provision/d1/events',
      token,
      renew,
      onEvent: (e) => events.push(e.event),
      onFailure: () => events.push('failure'),
      isFinal: () => false,
      // A pause before reconnecting would outlast the test.
      retryMs: 60_000,
      now: () => NOW,
    });
    return { requests, events, stream };
  }

  it('renews the token and resumes at once after the last event seen', async () => {
    let token = makeAccessToken(NOW - 900_000, 900_000);
    const renewed = makeAccessToken(NOW, 900_000);
    const renew = vi.fn(async () => {
      token = renewed;
      return true;
    });
    const { requests, events, stream } = follow(() => token, renew);
    await vi.waitFor(() => expect(requests).toHaveLength(2), { timeout: 1_000 });
    expect(renew).toHaveBeenCalledOnce();
    expect(requests[1]).toMatchObject({ Authorization: `Bearer ${renewed}`, 'Last-Event-ID': 's:1' });
    expect(events).not.toContain('failure');
    stream.close();
    vi.unstubAllGlobals();
  });

  it('resumes at once with the token the session renewed meanwhile, without renewing again', async () => {
    const opened = makeAccessToken(NOW - 900_000, 900_000);
    const newer = makeAccessToken(NOW - 100_000, 900_000);
    // The refresh scheduler renews while the first connection is open.
    let asked = 0;
    const renew = vi.fn(async () => true);
    const { requests, stream } = follow(() => (asked++ === 0 ? opened : newer), renew);
    await vi.waitFor(() => expect(requests).toHaveLength(2), { timeout: 1_000 });
    expect(renew).not.toHaveBeenCalled();
    expect(requests[1]).toMatchObject({ Authorization: `Bearer ${newer}`, 'Last-Event-ID': 's:1' });
    stream.close();
    vi.unstubAllGlobals();
  });
});
