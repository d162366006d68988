import type pg from 'pg';
import { isInteractive } from './interactive-context.ts';
import { PriorityLane } from './priority-lane.ts';

type Connected = (err: Error | undefined, client?: pg.PoolClient, done?: pg.PoolClient['release']) => void;
type Connect = (cb?: Connected) => Promise<pg.PoolClient> | undefined;

/**
 * Puts a priority lane in front of `pool`: every checkout (`pool.query` and drizzle's transactions
 * both go through `pool.connect`) waits for a slot of the lane, operators' requests first
 * (`interactive`, by default: an HTTP request is open), and gives it back when the client is
 * released, after an error too. The lane has as many slots as the pool has connections, so
 * callers wait in the lane and the pool itself never queues. A transaction holds its client and
 * its slot until it ends; its statements go to that client, never through the lane again.
 * Returns the lane, whose waiting callers the metrics count.
 */
export function prioritisePool(pool: pg.Pool, interactive: () => boolean = isInteractive): PriorityLane {
  const lane = new PriorityLane(pool.options.max ?? 10);
  const connect = pool.connect.bind(pool) as Connect;

  const checkout = (cb: Connected): void => {
    lane.acquire(interactive(), () => {
      connect((err, client) => {
        if (err || !client) {
          lane.release();
          return cb(err ?? new Error('the pool answered without a client'));
        }
        // pg-pool sets a new release function on every checkout; ours runs once per checkout.
        const release = client.release.bind(client);
        let returned = false;
        const wrapped = (why?: Error | boolean) => {
          try {
            release(why);
          } finally {
            if (!returned) {
              returned = true;
              lane.release();
            }
          }
        };
        client.release = wrapped;
        cb(undefined, client, wrapped);
      });
    });
  };

  (pool as unknown as { connect: Connect }).connect = (cb?: Connected) => {
    if (cb) return void checkout(cb);
    return new Promise<pg.PoolClient>((resolve, reject) =>
      checkout((err, client) => (err || !client ? reject(err) : resolve(client))),
    );
  };
  return lane;
}
