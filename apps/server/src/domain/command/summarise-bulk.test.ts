import { describe, expect, it } from 'vitest';
import type { CommandState } from '@fleet/shared/schemas/command';
import { summariseBulk, type Missing, type Outcome } from './summarise-bulk.ts';

const of = (...states: CommandState[]): Outcome[] =>
  states.map((state, i) => ({ device: `d${i}`, state, error: state === 'failed' ? 'no' : null }));
const missing = (n: number): Missing[] =>
  Array.from({ length: n }, (_, i) => ({ device: `m${i}`, state: 'not_found', error: null }));

describe('summariseBulk', () => {
  it.each<[string, Outcome[], number, string, string]>([
    ['nothing to send to', [], 0, 'success', 'Reboot: no devices to send to'],
    ['all succeeded', of('succeeded', 'succeeded'), 0, 'success', 'Reboot to 2 devices: 2 succeeded'],
    [
      'held ones are not failures',
      of('succeeded', 'queued'),
      0,
      'success',
      'Reboot to 2 devices: 1 succeeded, 1 held until they wake',
    ],
    [
      'some failed',
      of('succeeded', 'failed', 'timed_out'),
      0,
      'partial',
      'Reboot to 3 devices: 1 succeeded, 1 failed, 1 did not answer',
    ],
    [
      'none reached',
      of('failed', 'timed_out'),
      0,
      'failed',
      'Reboot to 2 devices: 0 succeeded, 1 failed, 1 did not answer',
    ],
    ['only missing devices', [], 2, 'failed', 'Reboot to 2 devices: 0 succeeded, 2 not found'],
    [
      'held and missing',
      of('queued'),
      1,
      'partial',
      'Reboot to 2 devices: 0 succeeded, 1 held until they wake, 1 not found',
    ],
  ])('%s', (_, results, notFound, status, userMessage) => {
    const answer = summariseBulk({ type: 'reboot' }, results, missing(notFound));
    expect(answer.status).toBe(status);
    expect(answer.userMessage).toBe(userMessage);
    expect(answer.data.results).toHaveLength(results.length + notFound);
  });

  it('counts every state but expired', () => {
    const answer = summariseBulk(
      { type: 'reboot' },
      of('succeeded', 'failed', 'timed_out', 'queued', 'sent', 'expired'),
      [],
    );
    expect(answer.data.counts).toEqual({ succeeded: 1, failed: 1, timed_out: 1, queued: 1, sent: 1 });
  });

  it('with a limit, lists only what did not succeed, up to it, then the missing', () => {
    const answer = summariseBulk({ type: 'reboot' }, of('succeeded', 'failed', 'failed', 'timed_out'), missing(1), 2);
    expect(answer.data.results.map((r) => r.device)).toEqual(['d1', 'd2', 'm0']);
  });
});
