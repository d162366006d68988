import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { ChunkSizer } from './chunk-sizer.ts';
import { CoalescingQueue } from './coalescing-queue.ts';

/** A write whose statements finish when the test says, writing down each batch. */
function controlled() {
  const batches: string[][] = [];
  const finish: Array<(found: boolean[] | Error) => void> = [];
  const write = (ids: string[]) => {
    batches.push(ids);
    return new Promise<boolean[]>((resolve, reject) =>
      finish.push((found) => (found instanceof Error ? reject(found) : resolve(found))),
    );
  };
  return { batches, finish, write };
}

describe('CoalescingQueue', () => {
  it('writes an item at once when no statement runs, and gathers those that come meanwhile into the next', async () => {
    const { batches, finish, write } = controlled();
    const queue = new CoalescingQueue(write);
    const a = queue.add('a');
    expect(batches).toEqual([['a']]);
    const b = queue.add('b');
    const c = queue.add('c');
    expect(batches).toEqual([['a']]);
    finish[0]!([true]);
    expect(await a).toBe(true);
    expect(batches).toEqual([['a'], ['b', 'c']]);
    finish[1]!([true, false]);
    expect([await b, await c]).toEqual([true, false]);
    // Idle again: the next item goes at once.
    const d = queue.add('d');
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
    finish[2]!([true]);
    expect(await d).toBe(true);
  });

  it('takes at most maxBatch items a statement', async () => {
    const { batches, finish, write } = controlled();
    const queue = new CoalescingQueue(write, 2);
    const all = ['a', 'b', 'c', 'd'].map((id) => queue.add(id));
    finish[0]!([true]);
    await all[0];
    finish[1]!([true, true]);
    await all[2];
    finish[2]!([true]);
    await all[3];
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('takes fewer items after a write ran past the target of its sizer', async () => {
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      const { batches, finish, write } = controlled();
      const queue = new CoalescingQueue(write, 100, new ChunkSizer({ initial: 4, min: 1, max: 4, targetMs: 10 }));
      const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => queue.add(id));
      clock += 5; // one item in 5 ms: fine, and says nothing of a full batch
      finish[0]!([true]);
      await all[0];
      clock += 40; // four items in 40 ms: 10 ms an item
      finish[1]!([true, true, true, true]);
      await all[4];
      expect(batches).toEqual([['a'], ['b', 'c', 'd', 'e'], ['f', 'g']]);
      finish[2]!([true, true]);
      await all[6];
      finish[3]!([true]);
      await all[7];
      expect(batches).toHaveLength(4);
    } finally {
      now.mockRestore();
    }
  });

  it('a failed statement fails its own items only, and the queue goes on', async () => {
    const { batches, finish, write } = controlled();
    const queue = new CoalescingQueue(write);
    const a = queue.add('a');
    const b = queue.add('b');
    finish[0]!(new Error('database gone'));
    await expect(a).rejects.toThrow('database gone');
    finish[1]!([true]);
    expect(await b).toBe(true);
    expect(batches).toEqual([['a'], ['b']]);
  });

  it('writes a batch in the async context of its first item, not that of the call that started the loop', async () => {
    const als = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    let finishFirst = () => {};
    const queue = new CoalescingQueue(async (ids: string[]) => {
      seen.push(als.getStore());
      if (ids[0] === 'a') await new Promise<void>((resolve) => (finishFirst = resolve));
      return ids.map(() => true);
    });
    const a = als.run('request a', () => queue.add('a'));
    const b = als.run('request b', () => queue.add('b'));
    const c = als.run('request c', () => queue.add('c'));
    finishFirst();
    await Promise.all([a, b, c]);
    expect(seen).toEqual(['request a', 'request b']);
  });
});
