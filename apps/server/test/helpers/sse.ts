/** One event as a stream sent it. */
export interface SseEvent {
  id: string;
  event: string;
  data: any;
}

/**
 * Reads an event stream with fetch (the token in the header, as the console does): resolves with
 * its events once the server closes it, or once `stopAfter` says so (the connection is then cut).
 */
export async function readEvents(
  url: string,
  token: string | undefined,
  o: {
    lastEventId?: string;
    stopAfter?: (e: SseEvent, all: SseEvent[]) => boolean;
    onEvent?: (e: SseEvent) => void;
    /** The response, once its head has arrived (a balancer's headers say which instance answered). */
    onOpen?: (res: Response) => void;
  } = {},
): Promise<{ status: number; events: SseEvent[]; closedByServer: boolean; body?: any }> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: {
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(o.lastEventId ? { 'last-event-id': o.lastEventId } : {}),
    },
    signal: abort.signal,
  });
  o.onOpen?.(res);
  if (!res.ok || !res.body) return { status: res.status, events: [], closedByServer: true, body: await res.json() };
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const e: SseEvent = { id: '', event: 'message', data: undefined };
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) e.id = line.slice(4);
          else if (line.startsWith('event: ')) e.event = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (!data) continue;
        e.data = JSON.parse(data);
        events.push(e);
        o.onEvent?.(e);
        if (o.stopAfter?.(e, events)) {
          abort.abort();
          break;
        }
      }
      if (abort.signal.aborted) break;
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  }
  return { status: res.status, events, closedByServer: !abort.signal.aborted };
}
