import { describe, expect, it } from 'vitest';
import { writeBisecting } from './bisecting-writer.ts';

/** A database error as PostgreSQL (through Drizzle) reports it. */
const dbError = (code: string) => Object.assign(new Error(`database error ${code}`), { code });
const badValue = () => dbError('22P02');
const deadlock = () => dbError('40P01');

describe('writeBisecting', () => {
  it('splits a refused batch in halves down to the bad item; every other item is written', async () => {
    const tried: number[][] = [];
    const committed: number[][] = [];
    const refused: number[][] = [];
    await writeBisecting([1, 2, 3, 4, 5, 6, 7, 8], {
      write: async (items) => {
        tried.push(items);
        if (items.includes(6)) throw badValue();
      },
      committed: (items) => void committed.push(items),
      refused: (items) => void refused.push(items),
    });
    expect(refused).toEqual([[6]]);
    expect(committed).toEqual([[1, 2, 3, 4], [5], [7, 8]]);
    expect(tried).toEqual([[1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6], [5], [6], [7, 8]]);
  });

  it('keeps the items of one group together, and refuses the group whole', async () => {
    const committed: string[][] = [];
    const refused: string[][] = [];
    await writeBisecting(['s1:a', 's2:a', 's1:b', 's3:a', 's2:b'], {
      groupOf: (item) => item.split(':')[0],
      write: async (items) => {
        if (items.some((i) => i.startsWith('s2'))) throw badValue();
      },
      committed: (items) => void committed.push(items),
      refused: (items) => void refused.push(items),
    });
    expect(refused).toEqual([['s2:a', 's2:b']]);
    expect(committed).toEqual([['s1:a', 's1:b'], ['s3:a']]);
  });

  it('retries a deadlock on the same items before splitting, three tries in all', async () => {
    let tries = 0;
    const committed: Array<{ items: number[]; result: string }> = [];
    await writeBisecting([1, 2], {
      write: async () => {
        if (++tries < 3) throw deadlock();
        return 'ok';
      },
      committed: (items, result) => void committed.push({ items, result }),
      refused: () => expect.fail('nothing is refused'),
    });
    expect(tries).toBe(3);
    expect(committed).toEqual([{ items: [1, 2], result: 'ok' }]);
  });

  it('hands an error that refuses nothing in particular to failed(), and writes the other half', async () => {
    const failed: number[][] = [];
    const committed: number[][] = [];
    const refusals = new Set<unknown>();
    await writeBisecting([1, 2, 3, 4], {
      refuses: (err) => refusals.has(err),
      write: async (items) => {
        if (items.includes(4)) {
          const err = items.length > 2 ? badValue() : deadlock();
          if (items.length > 2) refusals.add(err);
          throw err;
        }
      },
      committed: (items) => void committed.push(items),
      refused: () => expect.fail('nothing is refused alone'),
      failed: (items) => void failed.push(items),
    });
    // The half holding 4 deadlocks on every try: not a refusal of its values, so it is not split.
    expect(failed).toEqual([[3, 4]]);
    expect(committed).toEqual([[1, 2]]);
  });

  it('rethrows such an error when nobody takes it', async () => {
    const err = new Error('connection lost');
    await expect(
      writeBisecting([1], {
        refuses: () => false,
        write: async () => {
          throw err;
        },
        refused: () => undefined,
      }),
    ).rejects.toBe(err);
  });
});
