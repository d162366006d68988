import { MAX_BULK_COMMAND_DEVICES, type BulkCommandAnswer } from '@fleet/shared/schemas/command';
import { describe, expect, it } from 'vitest';
import { countsText, failedCall, mergeBulkAnswers, planBulkCommand } from './bulk-commands.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const fresh = new Date(NOW - 60_000).toISOString();
const stale = new Date(NOW - 21 * 60_000).toISOString();

describe('planBulkCommand', () => {
  const known = new Map([
    ['aaaa00000001', { entity: 'acme', updated_at: fresh }],
    ['aaaa00000002', { entity: 'acme', updated_at: stale }],
    ['bbbb00000001', { entity: 'beta', updated_at: fresh }],
  ]);

  it('sends to the responsive devices, one call per entity, and names the unresponsive ones', () => {
    const plan = planBulkCommand(['aaaa00000001', 'aaaa00000002', 'bbbb00000001'], known, NOW, null);
    expect(plan.calls).toEqual([
      { entity: 'acme', devices: ['aaaa00000001'] },
      { entity: 'beta', devices: ['bbbb00000001'] },
    ]);
    expect(plan.sendable).toBe(2);
    expect(plan.unresponsive).toEqual(['aaaa00000002']);
    expect(plan.unlisted).toEqual([]);
  });

  it('sends nothing when every selected device is unresponsive', () => {
    const plan = planBulkCommand(['aaaa00000002'], known, NOW, 'acme');
    expect(plan).toMatchObject({ calls: [], sendable: 0, unresponsive: ['aaaa00000002'] });
  });

  it('sends an unknown name to the active entity, or leaves it out without one', () => {
    expect(planBulkCommand(['cccc00000001'], known, NOW, 'acme').calls).toEqual([
      { entity: 'acme', devices: ['cccc00000001'] },
    ]);
    expect(planBulkCommand(['cccc00000001'], known, NOW, null)).toMatchObject({
      calls: [],
      unlisted: ['cccc00000001'],
    });
  });

  it('splits calls at the contract limit', () => {
    const names = Array.from({ length: MAX_BULK_COMMAND_DEVICES + 5 }, (_, i) => i.toString(16).padStart(12, '0'));
    const plan = planBulkCommand(names, new Map(), NOW, 'acme');
    expect(plan.calls.map((c) => c.devices.length)).toEqual([MAX_BULK_COMMAND_DEVICES, 5]);
    expect(plan.sendable).toBe(MAX_BULK_COMMAND_DEVICES + 5);
  });
});

const ok = (n: number): BulkCommandAnswer => ({
  status: 'success',
  userMessage: `${n} succeeded`,
  data: {
    counts: { succeeded: n, failed: 0, timed_out: 0, queued: 0, sent: 0 },
    results: [{ device: 'aaaa00000001', state: 'succeeded', error: null }],
  },
});

describe('mergeBulkAnswers', () => {
  it('keeps a single answer as the server gave it (its text is what the user reads)', () => {
    const one = ok(2);
    expect(mergeBulkAnswers([one])).toBe(one);
  });

  it('adds counts and words them; success only if every call succeeded', () => {
    const failed = failedCall({ entity: 'beta', devices: ['bbbb00000001'] }, 'Forbidden');
    expect(failed.data.results).toEqual([{ device: 'bbbb00000001', state: 'failed', error: 'Forbidden' }]);
    const merged = mergeBulkAnswers([ok(2), failed]);
    expect(merged.status).toBe('partial');
    expect(merged.data.counts).toEqual({ succeeded: 2, failed: 1, timed_out: 0, queued: 0, sent: 0 });
    expect(merged.userMessage).toBe('2 succeeded, 1 failed.');
    expect(mergeBulkAnswers([ok(1), ok(3)]).status).toBe('success');
    expect(mergeBulkAnswers([failed, failed]).status).toBe('failed');
  });

  it('words held and unanswered commands', () => {
    expect(countsText({ succeeded: 0, failed: 0, timed_out: 1, queued: 2, sent: 1 })).toBe(
      '1 sent, no reply yet, 2 held until they wake, 1 timed out.',
    );
  });
});
