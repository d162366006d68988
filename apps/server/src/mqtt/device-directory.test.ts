import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalBus } from '../lib/bus.ts';
import { hashToken } from '../lib/tokens.ts';
import type { Db } from '../db/client.ts';
import { DeviceDirectory } from './device-directory.ts';

/** A database stand-in that answers the directory's one query shape and counts the queries. */
function fakeDb(rows: Array<{ name: string; entity: string; secretHash: string }>) {
  const calls: number[] = [];
  const db = {
    select: () => ({
      from: () => ({
        where: async () => {
          calls.push(1);
          return rows;
        },
      }),
    }),
  };
  return { db: db as unknown as Db, calls };
}

const device = (i: number) => ({
  name: i.toString(16).padStart(12, '0'),
  entity: 'acme',
  secretHash: hashToken(`s${i}`),
});

describe('DeviceDirectory', () => {
  it('answers a reconnect storm of 5,000 devices with one database read, then from memory', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => device(i));
    const { db, calls } = fakeDb(rows);
    const directory = new DeviceDirectory(db, createLocalBus());
    const verdicts = await Promise.all(rows.map((r, i) => directory.verify(r.name, `s${i}`)));
    expect(verdicts.every((v) => v?.entity === 'acme')).toBe(true);
    expect(calls).toHaveLength(1);
    await Promise.all(rows.map((r, i) => directory.verify(r.name, `s${i}`)));
    expect(calls).toHaveLength(1);
  });

  it('refuses a wrong secret and an unknown device, and forgets a device that changed', async () => {
    const { db, calls } = fakeDb([device(1)]);
    const bus = createLocalBus();
    const directory = new DeviceDirectory(db, bus);
    expect(await directory.verify(device(1).name, 'wrong')).toBeNull();
    expect(await directory.verify(device(1).name, '')).toBeNull();
    expect(await directory.verify(device(2).name, 's2')).toBeNull();
    expect(await directory.verify(device(1).name, 's1')).not.toBeNull();
    const before = calls.length;
    await bus.publish('devices.changed', { names: [device(1).name] });
    await directory.verify(device(1).name, 's1');
    expect(calls.length).toBe(before + 1);
  });

  describe('a device whose messages arrive while its identity is read', () => {
    afterEach(() => void vi.useRealTimers());

    it('keeps them in order: a message during the read joins it, so a later one cannot overtake it', async () => {
      vi.useFakeTimers();
      const reads: Array<() => void> = [];
      const db = {
        select: () => ({
          from: () => ({
            where: () => new Promise((resolve) => reads.push(() => resolve([device(1)]))),
          }),
        }),
      } as unknown as Db;
      const directory = new DeviceDirectory(db, createLocalBus());
      const name = device(1).name;
      const order: number[] = [];
      // What the device router does with each message: from the cache at once, else after the read.
      const message = (i: number) => {
        if (directory.peek(name) !== undefined) order.push(i);
        else void directory.lookup(name).then(() => order.push(i));
      };
      const answerReads = async () => {
        await vi.advanceTimersByTimeAsync(10);
        while (reads.length > 0) {
          reads.shift()!();
          await vi.advanceTimersByTimeAsync(10);
        }
      };
      message(1);
      await vi.advanceTimersByTimeAsync(10); // the batch window ends; the read is under way
      expect(reads).toHaveLength(1);
      message(2);
      reads.shift()!();
      await vi.advanceTimersByTimeAsync(0); // the read answered: the identity is cached now
      message(3);
      await answerReads();
      expect(order).toEqual([1, 2, 3]);
    });

    it('reads again for whoever asks after the device changed during a read, and caches only the new answer', async () => {
      vi.useFakeTimers();
      const reads: Array<(rows: unknown[]) => void> = [];
      const db = {
        select: () => ({ from: () => ({ where: () => new Promise((resolve) => reads.push(resolve)) }) }),
      } as unknown as Db;
      const bus = createLocalBus();
      const directory = new DeviceDirectory(db, bus);
      const name = device(1).name;
      const first = directory.lookup(name);
      await vi.advanceTimersByTimeAsync(10);
      await bus.publish('devices.changed', { names: [name] });
      const second = directory.lookup(name);
      await vi.advanceTimersByTimeAsync(10);
      expect(reads).toHaveLength(2);
      reads[0]!([device(1)]); // from before the change
      expect(await first).toMatchObject({ entity: 'acme' });
      expect(directory.peek(name)).toBeUndefined();
      reads[1]!([]); // deleted meanwhile
      expect(await second).toBeNull();
      expect(directory.peek(name)).toBeNull();
    });
  });
});
