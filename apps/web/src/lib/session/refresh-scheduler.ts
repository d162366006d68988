import { REFRESH } from '@fleet/shared/constants';
import { readTokenTimes, type TokenTimes } from './jwt.ts';
import type { RefreshOutcome } from './token-refresher.ts';

export type RefreshConfig = { -readonly [K in keyof typeof REFRESH]: number };

/** Browsers fire longer timeouts at once (32-bit signed ms), so long waits are chunked. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Delay before refreshing: fraction × remaining life − safety margin, never below the floor (core §4). */
export function computeRefreshDelay(remainingMs: number, fraction: number, config: RefreshConfig = REFRESH): number {
  return Math.max(config.floorMs, fraction * remainingMs - config.safetyMarginMs);
}

/** The fraction to use: the initial one until enough history, then 0.9 × average ratio, clamped (core §4). */
export function adaptFraction(history: readonly number[], config: RefreshConfig = REFRESH): number {
  if (history.length < config.adaptAfter) return config.initialFraction;
  const average = history.reduce((sum, ratio) => sum + ratio, 0) / history.length;
  return Math.min(config.maxFraction, Math.max(config.minFraction, config.adaptFactor * average));
}

/** Wait before retry number `attempt` (1-based): min(30 s, 5 s × attempt) (core §4). */
export function retryDelay(attempt: number, config: RefreshConfig = REFRESH): number {
  return Math.min(config.retryMaxMs, config.retryStepMs * attempt);
}

export interface RefreshSchedulerDeps {
  /** The access token whose expiry drives the schedule; null when signed out. */
  getAccessToken(): string | null;
  /** Performs one refresh; throws (a RefreshError with `fatal` when the server refused). */
  refresh(): Promise<RefreshOutcome>;
  /** The token is already expired: the session must be cleared. */
  onExpired(): void;
  /** Refreshing failed for good (3 consecutive failures, or a refused refresh token): sign out. */
  onGiveUp(error: unknown): void;
  now?: () => number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  config?: Partial<RefreshConfig>;
  readTimes?: (token: string) => TokenTimes | null;
}

/**
 * Schedules proactive access-token refreshes with the spec's adaptive rule. Framework-free;
 * clock, timers and the refresh call are injected so tests drive it with fake timers.
 */
export class RefreshScheduler {
  readonly #deps: RefreshSchedulerDeps;
  readonly #config: RefreshConfig;
  readonly #now: () => number;
  readonly #setTimeout: (callback: () => void, ms: number) => unknown;
  readonly #clearTimeout: (handle: unknown) => void;
  readonly #readTimes: (token: string) => TokenTimes | null;
  #timer: unknown = null;
  #history: number[] = [];
  #failures = 0;
  #inFlight = false;
  #running = false;

  constructor(deps: RefreshSchedulerDeps) {
    this.#deps = deps;
    this.#config = { ...REFRESH, ...deps.config };
    this.#now = deps.now ?? (() => Date.now());
    this.#setTimeout = deps.setTimeout ?? ((callback, ms) => globalThis.setTimeout(callback, ms));
    this.#clearTimeout =
      deps.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.#readTimes = deps.readTimes ?? readTokenTimes;
  }

  /** Fraction of the remaining life to wait before the next refresh. */
  get fraction(): number {
    return adaptFraction(this.#history, this.#config);
  }

  /** Recorded remaining/original lifespan ratios, oldest first (at most historySize). */
  get history(): readonly number[] {
    return [...this.#history];
  }

  /** Consecutive failed refreshes so far. */
  get failures(): number {
    return this.#failures;
  }

  /**
   * Starts scheduling for the current token. With `refreshWithinMs`, a token that close to
   * expiry is refreshed at once (used on app start with the 5-minute expiry buffer).
   */
  start(options: { refreshWithinMs?: number } = {}): void {
    this.#running = true;
    this.#failures = 0;
    const remaining = this.#remaining() ?? 0;
    const within = options.refreshWithinMs ?? -1;
    if (remaining > 0 && remaining <= within) {
      this.#clear();
      void this.#fire();
    } else {
      this.#schedule();
    }
  }

  /** Stops all timers; history is kept for the tab's lifetime. */
  stop(): void {
    this.#running = false;
    this.#clear();
  }

  /** The token changed outside the scheduler (401 recovery, another tab): reschedule from it. */
  tokenChanged(): void {
    if (!this.#running || this.#inFlight) return;
    this.#failures = 0;
    this.#schedule();
  }

  #remaining(): number | null {
    const token = this.#deps.getAccessToken();
    if (token === null) return null;
    const times = this.#readTimes(token);
    return times === null ? 0 : times.expiresAt - this.#now();
  }

  #schedule(): void {
    this.#clear();
    const remaining = this.#remaining();
    if (remaining === null) return;
    if (remaining <= 0) {
      this.stop();
      this.#deps.onExpired();
      return;
    }
    this.#arm(computeRefreshDelay(remaining, this.fraction, this.#config));
  }

  #arm(delayMs: number): void {
    this.#clear();
    // Timers work in whole milliseconds; rounding up avoids a sub-millisecond re-arm.
    const wholeMs = Math.ceil(delayMs);
    const due = this.#now() + wholeMs;
    const wait = Math.min(wholeMs, MAX_TIMER_MS);
    this.#timer = this.#setTimeout(() => {
      this.#timer = null;
      const left = due - this.#now();
      if (left > 0) this.#arm(left);
      else void this.#fire();
    }, wait);
  }

  #clear(): void {
    if (this.#timer !== null) this.#clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Remaining/original lifespan of the token about to be replaced, measured now. */
  #ratioNow(): number | null {
    const token = this.#deps.getAccessToken();
    const times = token === null ? null : this.#readTimes(token);
    if (times === null) return null;
    const lifespan = times.expiresAt - times.issuedAt;
    if (lifespan <= 0) return null;
    return Math.min(1, Math.max(0, (times.expiresAt - this.#now()) / lifespan));
  }

  async #fire(): Promise<void> {
    if (!this.#running || this.#inFlight) return;
    const ratio = this.#ratioNow();
    this.#inFlight = true;
    let outcome: RefreshOutcome;
    try {
      outcome = await this.#deps.refresh();
    } catch (error) {
      this.#inFlight = false;
      if (this.#running) this.#failed(error);
      return;
    }
    this.#inFlight = false;
    if (!this.#running) return;
    this.#failures = 0;
    if (outcome === 'refreshed' && ratio !== null) this.#record(ratio);
    this.#schedule();
  }

  #failed(error: unknown): void {
    this.#failures += 1;
    const fatal = typeof error === 'object' && error !== null && (error as { fatal?: unknown }).fatal === true;
    if (fatal || this.#failures >= this.#config.maxFailures) {
      this.stop();
      this.#deps.onGiveUp(error);
      return;
    }
    this.#arm(retryDelay(this.#failures, this.#config));
  }

  #record(ratio: number): void {
    this.#history.push(ratio);
    if (this.#history.length > this.#config.historySize)
      this.#history.splice(0, this.#history.length - this.#config.historySize);
  }
}
