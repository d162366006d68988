import { tryTransactionLock } from '../../db/advisory-lock.ts';
import type { Db } from '../../db/client.ts';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/raw-sql.ts';
import type { Deps } from '../deps.ts';
import { rollouts } from '../../db/schema.ts';
import { HttpError } from '../../lib/http-error.ts';
import type { ToProvision } from './send-rollout.ts';
import type { Named } from './settle-rollout.ts';
import { tickRollout, type TickResult } from './tick-rollout.ts';

/** Starts a device's provisioning session (a file-set rollout's step); answers the session's id. */
export type Provisioner = (p: ToProvision) => Promise<{ session_id: string }>;

/** What provisioning answers for a device that is asleep or not yet connected: it waits for it. */
const NOT_ONLINE = / (is asleep|has not connected yet)$/;

/** How often every active rollout is stepped (besides the kicks after an action or a settled update). */
export const ROLLOUT_TICK_MS = 2000;
/** A kick waits this long, so a burst of settled updates makes one step. */
const KICK_DELAY_MS = 100;

/**
 * The rollout engine, a long-lived worker on every instance (docs/rollouts.md): each step walks
 * the rollouts that are running, or that still have devices in flight, and steps each one in its
 * own transaction under a transaction-scoped advisory lock on its id, so with several instances
 * exactly one drives a rollout at a time; the state lives in the database, so a restarted server
 * simply carries on. Held updates of online devices go out after the commit.
 */
export class RolloutEngine {
  private timer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /**
   * The commands settled since the last step began (\`commands.settled\`): a step that only follows
   * replies settles just their devices. \`full\`: the next step settles every device in flight (an
   * action, the timer; it also catches a settlement whose event never came here).
   */
  private named: Named[] = [];
  private full = true;

  constructor(
    private readonly deps: Deps,
    private readonly onError: (err: unknown, what: string) => void,
    private readonly provisioner?: Provisioner,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(0), ROLLOUT_TICK_MS);
    this.timer.unref();
    this.deps.bus.subscribe('commands.settled', ({ id, device }) => {
      this.named.push({ id, device });
      this.kick(KICK_DELAY_MS, false);
    });
    this.kick(0);
  }

  /**
   * Steps soon (an action, a settled update); a step under way runs once more after it. `full`
   * (all but the settled commands' kicks): that step settles every device in flight.
   */
  kick(delay = KICK_DELAY_MS, full = true): void {
    if (full) this.full = true;
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      if (this.running) this.again = true;
      else void this.run(new Date(), false).catch((err) => this.onError(err, 'stepping rollouts'));
    }, delay);
    this.kickTimer.unref();
  }

  /**
   * Steps every active rollout once, settling every device in flight; `now` is the clock for
   * report timeouts (tests pass a later one).
   */
  tick(now = new Date()): Promise<void> {
    return this.run(now, true);
  }

  private async run(now: Date, full: boolean): Promise<void> {
    while (this.running) await this.running;
    // What this step settles is taken as it begins: events arriving during it wait for the next.
    const named = full || this.full ? null : this.named;
    this.named = [];
    if (named === null) this.full = false;
    this.running = this.stepAll(now, named).finally(() => (this.running = null));
    await this.running;
    if (this.again && !this.stopped) {
      this.again = false;
      this.kick(0, false);
    }
  }

  /** Stops stepping and waits for a step under way (before the database closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.kickTimer);
    await this.running;
  }

  /**
   * Starts a claimed device's session, its `sent_at` already set (so a crash here never starts a
   * second one), and records its id. A device asleep after all waits again; any other refusal
   * fails it with the reason.
   */
  private async provision(p: ToProvision): Promise<void> {
    const row = sql`rollout = ${p.rollout} and device = ${p.device} and attempt = ${p.attempt} and state = 'in_flight'`;
    try {
      if (!this.provisioner) throw new HttpError(409, 'Provisioning is not running on this instance');
      const session = await this.provisioner(p);
      await this.deps.db.execute(sql`update rollout_devices set command_id = ${session.session_id} where ${row}`);
    } catch (err) {
      if (!(err instanceof HttpError)) this.onError(err, `provisioning ${p.device}`);
      const message = err instanceof Error ? err.message : String(err);
      await this.deps.db.execute(
        NOT_ONLINE.test(message)
          ? sql`update rollout_devices set sent_at = null where ${row} and command_id is null`
          : sql`update rollout_devices set state = 'failed', settled_at = now(), error = ${message} where ${row}`,
      );
      this.kick();
    }
  }

  private async stepAll(now: Date, named: Named[] | null): Promise<void> {
    const active = rowsOf<{ id: string }>(
      await this.deps.db.execute(sql`
        select r.id from rollouts r where r.state = 'running'
          or (r.state in ('paused', 'awaiting_approval', 'cancelled') and exists (
            select 1 from rollout_devices d where d.rollout = r.id and d.state = 'in_flight' and not d.superseded))
        order by r.created_at`),
    );
    for (const { id } of active) {
      try {
        await this.step(id, now, named);
      } catch (err) {
        this.onError(err, `stepping rollout ${id}`);
      }
    }
  }

  private async step(id: string, now: Date, named: Named[] | null): Promise<void> {
    const result = await this.deps.db.transaction(async (tx): Promise<(TickResult & { entity: string }) | null> => {
      if (!(await tryTransactionLock(tx as unknown as Db, `rollout:${id}`))) return null;
      const [row] = await tx.select().from(rollouts).where(eq(rollouts.id, id)).for('update');
      if (!row) return null;
      return { ...(await tickRollout(this.deps, tx, row, now, named)), entity: row.entity };
    });
    if (!result) return;
    if (result.awake.length > 0) await this.deps.devices.commands.deliverHeld(result.awake);
    for (const p of result.provision) await this.provision(p);
    if (result.changed) await this.deps.bus.publish('rollouts.changed', { entity: result.entity, id });
    if (result.more) this.kick(0, false);
  }
}
