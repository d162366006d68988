import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { every } from './periodic.ts';

/** A job whose runs end only when the test says so. */
function controlled() {
  const ends: Array<(err?: Error) => void> = [];
  const job = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        ends.push((err) => (err ? reject(err) : resolve()));
      }),
  );
  return { job, ends };
}

describe('every', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the job on its interval', async () => {
    const job = vi.fn(async () => {});
    const p = every(1_000, job, () => {});
    await vi.advanceTimersByTimeAsync(3_000);
    expect(job).toHaveBeenCalledTimes(3);
    await p.stop();
  });

  it('does not start a run while one is under way', async () => {
    const { job, ends } = controlled();
    const p = every(1_000, job, () => {});
    await vi.advanceTimersByTimeAsync(5_000);
    expect(job).toHaveBeenCalledTimes(1);
    ends[0]!();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(job).toHaveBeenCalledTimes(2);
    ends[1]!();
    await p.stop();
  });

  it('stop waits for the run under way and starts none after', async () => {
    const { job, ends } = controlled();
    const p = every(1_000, job, () => {});
    await vi.advanceTimersByTimeAsync(1_000);
    let stopped = false;
    const stopping = p.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    ends[0]!();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(job).toHaveBeenCalledTimes(1);
  });

  it('hands a failed run to onError and keeps running', async () => {
    const { job, ends } = controlled();
    const onError = vi.fn();
    const p = every(1_000, job, onError);
    await vi.advanceTimersByTimeAsync(1_000);
    ends[0]!(new Error('database gone'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(onError).toHaveBeenCalledWith(new Error('database gone'));
    expect(job).toHaveBeenCalledTimes(2);
    ends[1]!();
    await p.stop();
  });
});
