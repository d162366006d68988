import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceSelections } from '../../db/schema.ts';
import { runSelection, type Member, type RunOptions } from './run-selection.ts';
import { SELECTION_LEASE_MS, type SelectionRow } from './selection-scope.ts';

/** What a run does with each batch of a selection, built from the action and arguments on its row. */
export type Batches = (batch: Member[]) => Promise<unknown>;
export type BatchesFor = (sel: SelectionRow) => Promise<Batches>;

/**
 * The selection runs of one instance (decision 2026-11-28-selection-resume): a run started here
 * holds its row's lease; a sweep at start and every lease period takes the `running` rows whose
 * lease lapsed (their instance stopped or died) and carries them on from their resume point. The
 * sweep's update re-reads each row under its lock, so of two instances sweeping at once only one
 * takes a row. Stopping ends every run after its batch under way and lets its lease go.
 */
export class SelectionRunner {
  readonly holder = randomUUID();
  private readonly runs = new Set<Promise<void>>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** Tests make batches small and stop the instance at a given point with these. */
  tuning: Pick<RunOptions, 'size' | 'afterBatch'> = {};

  constructor(
    private readonly db: Db,
    private readonly batchesFor: BatchesFor,
    private readonly onError: (err: unknown, what: string) => void,
  ) {}

  start(): void {
    const sweep = () => void this.sweep().catch((err: unknown) => this.onError(err, 'resuming selections'));
    sweep();
    this.timer = setInterval(sweep, SELECTION_LEASE_MS);
    this.timer.unref();
  }

  /** Runs a selection this instance holds the lease of, in the background. */
  run(sel: SelectionRow): void {
    if (this.stopped) return;
    const job = this.runHeld(sel)
      .catch((err: unknown) => this.onError(err, 'a selection run'))
      .finally(() => this.runs.delete(job));
    this.runs.add(job);
  }

  private async runHeld(sel: SelectionRow): Promise<void> {
    let batches: Batches;
    try {
      batches = await this.batchesFor(sel);
    } catch (err) {
      // The action cannot go on (its firmware or group is gone): the run ends where it stood.
      this.onError(err, `resuming the ${sel.action ?? ''} of a selection`);
      await this.db
        .update(deviceSelections)
        .set({ state: 'done', lease_until: null })
        .where(eq(deviceSelections.id, sel.id));
      return;
    }
    await runSelection(this.db, sel, batches, {
      ...this.tuning,
      holder: this.holder,
      stopping: () => this.stopped,
      onError: this.onError,
    });
  }

  /** Takes the running selections whose lease lapsed and resumes them; answers the rows taken. */
  async sweep(): Promise<SelectionRow[]> {
    if (this.stopped) return [];
    const taken = await this.db
      .update(deviceSelections)
      .set({
        lease_holder: this.holder,
        lease_until: sql`now() + make_interval(secs => ${SELECTION_LEASE_MS / 1000})`,
      })
      .where(
        and(
          eq(deviceSelections.state, 'running'),
          isNotNull(deviceSelections.args),
          lt(deviceSelections.lease_until, sql`now()`),
        ),
      )
      .returning();
    for (const sel of taken) this.run(sel);
    return taken;
  }

  /** Stops sweeping; every run ends after its batch under way (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all(this.runs);
  }
}
