/**
 * How many connections an operator's queries may take in a row while background work waits
 * (docs/decisions/2026-11-28-interactive-queries-first.md): background work gets at least one
 * slot in `INTERACTIVE_BURST + 1` whenever both wait, so it is slowed, never starved.
 */
export const INTERACTIVE_BURST = 4;

type Grant = () => void;

/** A first-in first-out queue of grants; `shift` without moving the rest (queues reach thousands). */
class Queue {
  private items: Grant[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(grant: Grant): void {
    this.items.push(grant);
  }

  shift(): Grant | undefined {
    const grant = this.items[this.head];
    this.items[this.head++] = undefined as unknown as Grant;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return grant;
  }
}

/**
 * The order in which callers get one of `slots` database connections: interactive callers (an
 * operator's request) before background work (device messages, batchers, sweeps, engines), each
 * lane first come first served, and after `burst` interactive grants in a row while background
 * work waits, one background grant. Pure: no clock, no I/O; a grant is a callback run at once
 * when a slot is free, else when `release()` hands it one. Each grant must be paired with
 * exactly one `release()`.
 */
export class PriorityLane {
  private free: number;
  private readonly interactive = new Queue();
  private readonly background = new Queue();
  /** Interactive grants since background work last got a slot, counted while it waits. */
  private run = 0;

  constructor(
    slots: number,
    private readonly burst = INTERACTIVE_BURST,
  ) {
    if (!(slots >= 1)) throw new RangeError('a lane needs at least one slot');
    this.free = slots;
  }

  /** Callers waiting for a slot, by lane. */
  get waiting(): { interactive: number; background: number } {
    return { interactive: this.interactive.length, background: this.background.length };
  }

  /** Runs `grant` when this caller's turn comes (at once if a slot is free and nobody waits). */
  acquire(interactive: boolean, grant: Grant): void {
    if (this.free > 0) {
      this.free--;
      grant();
      return;
    }
    (interactive ? this.interactive : this.background).push(grant);
  }

  /** A slot came back: the next caller in turn gets it. */
  release(): void {
    const next = this.next();
    if (!next) {
      this.free++;
      return;
    }
    next();
  }

  private next(): Grant | undefined {
    const backgroundWaits = this.background.length > 0;
    if (this.interactive.length > 0 && (!backgroundWaits || this.run < this.burst)) {
      if (backgroundWaits) this.run++;
      return this.interactive.shift();
    }
    this.run = 0;
    return this.background.shift();
  }
}
