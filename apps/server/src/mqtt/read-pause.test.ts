import { describe, expect, it } from 'vitest';
import { ReadPause, type PausableClient } from './read-pause.ts';

/** A stand-in for an Aedes client: records pause and resume, and the batch count at resume. */
function fakeClient() {
  const calls: string[] = [];
  const client: PausableClient = {
    _parsingBatch: 0,
    closed: false,
    pause: () => void calls.push('pause'),
    resume: () => void calls.push(`resume with batch ${client._parsingBatch}`),
  };
  return { client, calls };
}

/** A ReadPause whose timers are run by hand. */
function pauseWithClock() {
  const timers: Array<{ run: () => void; ms: number }> = [];
  const pauses = new ReadPause((run, ms) => void timers.push({ run, ms }));
  return { pauses, timers };
}

describe('ReadPause', () => {
  it('stops reading a client for the time given, then resumes it with its batch count cleared', () => {
    const { pauses, timers } = pauseWithClock();
    const { client, calls } = fakeClient();
    expect(pauses.pause(client, 400)).toBe(true);
    expect(pauses.isPaused(client)).toBe(true);
    expect(timers.map((t) => t.ms)).toEqual([400]);
    // Packets of the read already taken finished while paused: Aedes did not count them down.
    client._parsingBatch = 7;
    timers[0]!.run();
    expect(calls).toEqual(['pause', 'resume with batch 0']);
    expect(pauses.isPaused(client)).toBe(false);
  });

  it('does not extend a pause: a paused client paused again is left as it is', () => {
    const { pauses, timers } = pauseWithClock();
    const { client, calls } = fakeClient();
    pauses.pause(client, 400);
    expect(pauses.pause(client, 400)).toBe(false);
    expect(timers).toHaveLength(1);
    timers[0]!.run();
    // Paused again after the resume: a new pause.
    expect(pauses.pause(client, 300)).toBe(true);
    expect(calls).toEqual(['pause', 'resume with batch 0', 'pause']);
  });

  it('neither pauses nor resumes a closed client', () => {
    const { pauses, timers } = pauseWithClock();
    const closed = fakeClient();
    closed.client.closed = true;
    expect(pauses.pause(closed.client, 400)).toBe(false);
    const closing = fakeClient();
    pauses.pause(closing.client, 400);
    closing.client.closed = true;
    timers.at(-1)!.run();
    expect(closed.calls).toEqual([]);
    expect(closing.calls).toEqual(['pause']);
    expect(pauses.isPaused(closing.client)).toBe(false);
  });

  it('resumes on its own with the default timer', async () => {
    const pauses = new ReadPause();
    const { client, calls } = fakeClient();
    pauses.pause(client, 20);
    const t0 = performance.now();
    while (pauses.isPaused(client) && performance.now() - t0 < 5_000) await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(['pause', 'resume with batch 0']);
  });
});
