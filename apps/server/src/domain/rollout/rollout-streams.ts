import type { ServerResponse } from 'node:http';
import type { Bus } from '../../lib/bus.ts';

/** Comment lines keep proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;

/**
 * The entity's rollout event streams on this instance: every instance relays the bus's
 * `rollouts.changed`, so a change made or driven anywhere reaches every client of that entity
 * (and no other entity's). Each event names the rollout; the client reads it again.
 */
export class RolloutStreams {
  private readonly byEntity = new Map<string, Set<ServerResponse>>();
  private readonly keepalive: NodeJS.Timeout;

  constructor(bus: Bus) {
    bus.subscribe('rollouts.changed', ({ entity, id }) => {
      for (const res of this.byEntity.get(entity) ?? [])
        res.write(`event: rollout\ndata: ${JSON.stringify({ id })}\n\n`);
    });
    this.keepalive = setInterval(() => {
      for (const set of this.byEntity.values()) for (const res of set) res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  /** Opens a stream of the entity's rollout changes on `res`; answers its close. */
  open(res: ServerResponse, entity: string): () => void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n\nevent: connection\ndata: {"status":"connected"}\n\n');
    let set = this.byEntity.get(entity);
    if (!set) this.byEntity.set(entity, (set = new Set()));
    set.add(res);
    const close = () => {
      set.delete(res);
      if (set.size === 0) this.byEntity.delete(entity);
      if (!res.writableEnded) res.end();
    };
    res.once('close', close);
    return close;
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    clearInterval(this.keepalive);
    for (const set of [...this.byEntity.values()]) for (const res of [...set]) res.end();
  }
}
