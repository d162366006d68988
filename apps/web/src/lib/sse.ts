import { readTokenTimes } from './session/jwt.ts';

/**
 * The server ends a stream when the access token it was opened with expires, by its own clock: a
 * token this close to its expiry counts as expired here.
 */
const EXPIRY_LEEWAY_MS = 5_000;

/** One event as the server sent it. */
export interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

export interface EventStreamOptions {
  url: string;
  /** The bearer for each (re)connection: the token travels in the header, never in the URL. */
  token(): string | null;
  /**
   * Renews the access token: answers whether a fresh one is available to try again with. Asked
   * once after a 401, and when the server ended the stream at the token's expiry.
   */
  renew(): Promise<boolean>;
  onEvent(e: StreamEvent): void;
  /** The stream cannot go on: `lost` after the retries, `refused` for a 4xx answer. */
  onFailure(reason: 'lost' | 'refused', status?: number): void;
  /** Whether an event is the stream's last: after it the stream stops instead of reconnecting. */
  isFinal(e: StreamEvent): boolean;
  /** Resume after this event (Last-Event-ID) on the first connection. */
  lastEventId?: string;
  /** Attempts in a row before giving up; default 5. */
  retries?: number;
  /** Pause before the first retry (doubles after each, up to 10 s); default 1 s. */
  retryMs?: number;
  /** The clock that says whether a token has expired; default Date.now. */
  now?: () => number;
}

export interface EventStream {
  /** Stops the stream; no more callbacks. */
  close(): void;
  /** The id of the last event received (what a reconnection resumes after). */
  lastEventId(): string | undefined;
}

/**
 * Server-Sent Events over fetch (docs/decisions.md): the Authorization header and Last-Event-ID
 * ride on each request; a dropped connection is retried with the last id seen, so nothing is
 * missed or repeated; the server's clean close ends the stream. A stream the server ends because
 * its access token expired resumes at once with the renewed token.
 */
export function openEventStream(o: EventStreamOptions): EventStream {
  const abort = new AbortController();
  let last = o.lastEventId;
  let closed = false;
  let failures = 0;
  let renewed = false;
  /** The token the current connection was opened with. */
  let used: string | null = null;
  const now = o.now ?? Date.now;

  /** Whether a token newer than `used` is available: the session's own, or one renewed now. */
  const fresher = async (): Promise<boolean> => o.token() !== used || (await o.renew().catch(() => false));
  /** Whether the server may have ended the stream for its token: expired, or already replaced. */
  const lapsed = (): boolean => {
    if (o.token() !== used) return true;
    const times = used === null ? null : readTokenTimes(used);
    return times !== null && times.expiresAt <= now() + EXPIRY_LEEWAY_MS;
  };

  const run = async (): Promise<void> => {
    while (!closed) {
      let response: Response;
      try {
        const headers: Record<string, string> = { Accept: 'text/event-stream' };
        const token = o.token();
        used = token;
        if (token) headers.Authorization = `Bearer ${token}`;
        if (last) headers['Last-Event-ID'] = last;
        response = await fetch(o.url, { headers, signal: abort.signal, cache: 'no-store' });
      } catch {
        if (closed) return;
        if (!(await pause())) return;
        continue;
      }
      if (response.status === 401 && !renewed) {
        renewed = true;
        if (await fresher()) continue;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        if (response.status >= 500) {
          if (!(await pause())) return;
          continue;
        }
        finish('refused', response.status);
        return;
      }
      renewed = false;
      await read(response.body);
      if (closed) return;
      // Ended at its token's expiry: resume after the last event seen, now, with a fresh token.
      if (lapsed() && (await fresher())) continue;
      // Ended without its final event otherwise: the link dropped; resume after a pause.
      if (!(await pause())) return;
    }
  };

  /** Reads events until the body ends or a final event arrives. */
  const read = async (body: ReadableStream<Uint8Array>): Promise<void> => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const e = parseBlock(block);
          if (!e) continue;
          failures = 0;
          if (e.id) last = e.id;
          if (closed) return;
          o.onEvent(e);
          if (o.isFinal(e)) {
            finish(null);
            abort.abort();
            return;
          }
        }
      }
    } catch {
      // The link dropped mid-stream.
    }
  };

  const pause = async (): Promise<boolean> => {
    failures++;
    if (failures > (o.retries ?? 5)) {
      finish('lost');
      return false;
    }
    const ms = Math.min(10_000, (o.retryMs ?? 1_000) * 2 ** (failures - 1));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return !closed;
  };

  const finish = (reason: 'lost' | 'refused' | null, status?: number) => {
    if (closed) return;
    closed = true;
    if (reason) o.onFailure(reason, status);
  };

  void run();
  return {
    close() {
      closed = true;
      abort.abort();
    },
    lastEventId: () => last,
  };
}

/** One `id:`/`event:`/`data:` block; comments (heartbeats) and blocks without data give null. */
export function parseBlock(block: string): StreamEvent | null {
  const e: StreamEvent = { id: '', event: 'message', data: '' };
  let hasData = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') e.id = value;
    else if (field === 'event') e.event = value;
    else if (field === 'data') {
      e.data = hasData ? `${e.data}\n${value}` : value;
      hasData = true;
    }
  }
  return hasData ? e : null;
}
