import { describe, expect, it } from 'vitest';
import type { ReplyMessage } from '@fleet/shared/protocol';
import { SettleQueue } from './settle-queue.ts';
import type { DeviceReply } from './settle-reply.ts';

const reply = (id: string): ReplyMessage => ({ id, status: 'success' });

/** A settle whose statements finish when the test says, writing down each batch's ids. */
function controlled() {
  const batches: string[][] = [];
  const finish: Array<(found: boolean[] | Error) => void> = [];
  const settle = (replies: DeviceReply[]) => {
    batches.push(replies.map((r) => r.reply.id));
    return new Promise<boolean[]>((resolve, reject) =>
      finish.push((found) => (found instanceof Error ? reject(found) : resolve(found))),
    );
  };
  return { batches, finish, settle };
}

describe('SettleQueue', () => {
  it('settles a reply at once when no statement runs, and gathers those that come meanwhile into the next', async () => {
    const { batches, finish, settle } = controlled();
    const queue = new SettleQueue(settle);
    const a = queue.add('d1', reply('a'));
    expect(batches).toEqual([['a']]);
    const b = queue.add('d2', reply('b'));
    const c = queue.add('d3', reply('c'));
    expect(batches).toEqual([['a']]);
    finish[0]!([true]);
    expect(await a).toBe(true);
    expect(batches).toEqual([['a'], ['b', 'c']]);
    finish[1]!([true, false]);
    expect([await b, await c]).toEqual([true, false]);
    // Idle again: the next reply goes at once.
    const d = queue.add('d4', reply('d'));
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
    finish[2]!([true]);
    expect(await d).toBe(true);
  });

  it('takes at most maxBatch replies a statement', async () => {
    const { batches, finish, settle } = controlled();
    const queue = new SettleQueue(settle, 2);
    const all = ['a', 'b', 'c', 'd'].map((id) => queue.add('d1', reply(id)));
    finish[0]!([true]);
    await all[0];
    finish[1]!([true, true]);
    await all[2];
    finish[2]!([true]);
    await all[3];
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('a failed statement fails its own replies only, and the queue goes on', async () => {
    const { batches, finish, settle } = controlled();
    const queue = new SettleQueue(settle);
    const a = queue.add('d1', reply('a'));
    const b = queue.add('d1', reply('b'));
    finish[0]!(new Error('database gone'));
    await expect(a).rejects.toThrow('database gone');
    finish[1]!([true]);
    expect(await b).toBe(true);
    expect(batches).toEqual([['a'], ['b']]);
  });
});
