/**
 * The time a background statement should hold the database at most, on PGlite's one connection:
 * an operator's query that arrives meanwhile waits for it (bench/notes/rollout-bench.md, s25e).
 */
export const STATEMENT_TARGET_MS = 10;

interface Options {
  /** Items a statement starts with, and never more than `max`. */
  initial: number;
  /** Fewest items a statement takes, however long it runs: each statement has a fixed cost. */
  min: number;
  max: number;
  /** Time one statement should take. */
  targetMs?: number;
}

/**
 * How many items the next statement of a batcher writes, so that one statement takes about
 * `targetMs`: each statement's time is told to `observe`, and the size follows it, down at once
 * after a statement over the target (by the ratio, at most to half), up by a quarter at most after
 * one under half of it. Pure: no clock; the caller times its statements.
 */
export class ChunkSizer {
  private current: number;
  readonly targetMs: number;

  constructor(private readonly o: Options) {
    this.targetMs = o.targetMs ?? STATEMENT_TARGET_MS;
    this.current = clamp(o.initial, o.min, o.max);
  }

  /** Items the next statement writes. */
  get size(): number {
    return this.current;
  }

  /** A statement of `items` items took `ms`. */
  observe(items: number, ms: number): void {
    if (!(ms >= 0) || items <= 0) return;
    // A statement short of items says little about a full one's time.
    if (ms <= this.targetMs && items < this.current) return;
    const perItem = ms / items;
    let next = this.current;
    if (ms > this.targetMs) next = Math.max(Math.floor(this.current / 2), Math.floor(this.targetMs / perItem));
    else if (ms < this.targetMs / 2)
      next = Math.min(Math.ceil(this.current * 1.25), Math.floor(this.targetMs / perItem));
    this.current = clamp(next, this.o.min, this.o.max);
  }
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(n)));
