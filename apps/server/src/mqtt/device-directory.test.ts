import { describe, expect, it } from 'vitest';
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
});
