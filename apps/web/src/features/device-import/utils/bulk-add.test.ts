import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/api-error.ts';
import { addRows, countResults } from './bulk-add.ts';
import type { BulkRow } from './bulk-rows.ts';

const row = (line: number, name: string, issue?: string): BulkRow => ({
  line,
  name,
  description: '',
  version_id: '',
  ...(issue && { issue }),
});
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('addRows', () => {
  it('sends only valid rows, at most `limit` at once, and reports every row in file order', async () => {
    let running = 0;
    let peak = 0;
    const sent: string[] = [];
    const progress: string[] = [];
    const rows = [
      row(2, 'a'),
      row(3, 'bad', 'Device ID: wrong'),
      row(4, 'taken'),
      row(5, 'c'),
      row(6, 'd'),
      row(7, 'e'),
      row(8, 'f'),
      row(9, 'offline'),
    ];
    const results = await addRows(
      rows,
      async (r) => {
        running++;
        peak = Math.max(peak, running);
        sent.push(r.name);
        await tick();
        running--;
        if (r.name === 'taken')
          throw new ApiError({
            status: 409,
            userMessage: 'This Device ID is already registered',
            details: { 'document.name': ['This Device ID is already registered'] },
          });
        if (r.name === 'offline') throw new ApiError({ status: 0, userMessage: 'Network error' });
      },
      { limit: 4, onProgress: (done, total) => progress.push(`${done}/${total}`) },
    );
    expect(peak).toBe(4);
    expect(sent).not.toContain('bad');
    expect(progress).toEqual(['0/7', '1/7', '2/7', '3/7', '4/7', '5/7', '6/7', '7/7']);
    expect(results.map((r) => [r.row.name, r.status, 'message' in r ? r.message : ''])).toEqual([
      ['a', 'created', ''],
      ['bad', 'invalid', 'Device ID: wrong'],
      ['taken', 'failed', 'This Device ID is already registered'],
      ['c', 'created', ''],
      ['d', 'created', ''],
      ['e', 'created', ''],
      ['f', 'created', ''],
      ['offline', 'failed', 'Network error'],
    ]);
    expect(countResults(results)).toEqual({ created: 5, failed: 2, invalid: 1, stopped: 0 });
  });

  it('shows the field details of a 400 with the user message', async () => {
    const [result] = await addRows([row(2, 'x')], async () => {
      throw new ApiError({ status: 400, userMessage: 'Invalid input', details: { 'document.name': ['Bad id'] } });
    });
    expect(result).toMatchObject({ status: 'failed', message: 'Invalid input: Bad id' });
  });

  it('marks rows never sent after a stop', async () => {
    const controller = new AbortController();
    const results = await addRows(
      [row(2, 'a'), row(3, 'b'), row(4, 'c')],
      async () => {
        controller.abort();
      },
      { limit: 1, signal: controller.signal },
    );
    expect(results.map((r) => r.status)).toEqual(['created', 'stopped', 'stopped']);
  });
});
