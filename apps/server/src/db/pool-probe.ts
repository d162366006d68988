import type pg from 'pg';
import type { PriorityLane } from './priority-lane.ts';

type Query = (...args: unknown[]) => unknown;

/** A query's text and parameters: `query(text | { text, values? }, values?)` (Drizzle passes a config and the values). */
function statementOf(args: unknown[]): [string, readonly unknown[]] {
  const [q, v] = args;
  const config = (typeof q === 'string' ? { text: q } : (q ?? {})) as { text?: unknown; values?: unknown };
  const values = Array.isArray(v) ? v : Array.isArray(config.values) ? config.values : [];
  return [String(config.text ?? ''), values];
}

/**
 * What the metrics read of a connection pool: its connections (total, idle, callers waiting) at
 * scrape time, and every query's duration, timed on each client as the pool opens it (both
 * `pool.query` with its callback and drizzle's `client.query` promises). Until an observer is
 * set, timing a query costs a clock read.
 */
export class PoolProbe {
  /** Told each query's duration in seconds, failed ones too. */
  observeQuery: ((seconds: number) => void) | null = null;
  /**
   * Told each statement's text and parameters as it is sent (BEGIN and COMMIT included): tests and benches count
   * what an operation costs the database (test/integration/command-statements.test.ts).
   */
  traceQuery: ((text: string, values: readonly unknown[]) => void) | null = null;
  /** The pool's size: pg.Pool's `max`. */
  readonly max: number;

  /** `lane`: the priority lane in front of the pool (prioritise-pool.ts), where callers wait instead. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly lane?: Pick<PriorityLane, 'waiting'>,
  ) {
    this.max = pool.options.max ?? 10;
    pool.on('connect', (client) => this.time(client));
  }

  /** Connections open, idle among them, and callers waiting for one (in the lane or the pool). */
  use(): { total: number; idle: number; waiting: number } {
    const lane = this.lane?.waiting ?? { interactive: 0, background: 0 };
    const waiting = this.pool.waitingCount + lane.interactive + lane.background;
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting };
  }

  private time(client: pg.PoolClient): void {
    const query = client.query.bind(client) as Query;
    const observe = (started: number) => this.observeQuery?.((performance.now() - started) / 1000);
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const started = performance.now();
      if (this.traceQuery) this.traceQuery(...statementOf(args));
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...result: unknown[]) => {
          observe(started);
          return (callback as Query)(...result);
        };
        return query(...args);
      }
      const answer = query(...args);
      if (answer instanceof Promise)
        answer.then(
          () => observe(started),
          () => observe(started),
        );
      return answer;
    };
  }
}
