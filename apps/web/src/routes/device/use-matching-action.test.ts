import { describe, expect, it } from 'vitest';
import type { Selection } from '@fleet/shared/schemas/device-view';
import { progressText } from './use-matching-action.tsx';

const sel = (over: Partial<Selection>): Selection => ({
  id: '00000000-0000-4000-8000-000000000000',
  total: 25,
  query: 'battery=Low',
  action: 'command',
  state: 'running',
  done: 0,
  expires_at: '2026-11-27T20:00:00.000Z',
  ...over,
});

describe('progressText', () => {
  it('says how many devices were handled and what their commands are waiting for', () => {
    const counts = { succeeded: 3, failed: 1, sent: 4, queued: 17, timed_out: 0, expired: 0 };
    expect(progressText('Refresh', sel({ done: 25, counts }))).toBe(
      'Refresh: 25 of 25 devices handled, 4 answered, 4 waiting for a reply, 17 held until they connect',
    );
  });

  it('says a deletion is done with the count', () => {
    expect(progressText('Delete', sel({ action: 'delete', state: 'done', done: 1, total: 1 }))).toBe(
      'Delete: 1 device done',
    );
  });
});
