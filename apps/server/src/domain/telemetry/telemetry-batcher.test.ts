import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import { TelemetryBatcher } from './telemetry-batcher.ts';

/**
 * A database that notes which devices each flush's statement carries (and updates none): the
 * devices are read from the statement's parameters as PostgreSQL would receive them.
 */
function fakeDb(flushes: string[][], statements: string[] = [], gate?: Promise<void>) {
  const dialect = new PgDialect();
  return {
    execute: async (q: SQL) => {
      const text = JSON.stringify(dialect.sqlToQuery(q).params);
      await gate;
      statements.push(text);
      flushes.push(['d1', 'd2'].filter((d) => text.includes(`\\"name\\":\\"${d}\\"`)));
      return { rows: [] };
    },
  } as unknown as Db;
}

function batcher(flushes: string[][], statements?: string[], gate?: Promise<void>) {
  return new TelemetryBatcher(fakeDb(flushes, statements, gate), {
    intervalMs: 60_000,
    onWoken: () => undefined,
    onRefused: () => undefined,
    onError: (err) => {
      throw err;
    },
  });
}

const at = (ms: number) => new Date(Date.UTC(2026, 10, 24, 8, 0, 0) + ms);

describe('TelemetryBatcher', () => {
  it('queues a bare sign of life at most once a second or two per device; anything said is always queued', async () => {
    const flushes: string[][] = [];
    const t = batcher(flushes);
    t.report('d1', {}, at(0));
    t.report('d2', {}, at(0));
    await t.flush();
    // Heard again within the second: nothing the database keeps would change.
    t.report('d1', {}, at(400));
    t.report('d2', { battery: 80 }, at(400));
    await t.flush();
    // Two periods on, d1's sign of life is queued again.
    t.report('d1', {}, at(2_500));
    await t.flush();
    expect(flushes).toEqual([['d1', 'd2'], ['d2'], ['d1']]);
  });

  it('queues the first sign of life after a device went away at once', async () => {
    const flushes: string[][] = [];
    const t = batcher(flushes);
    t.report('d1', {}, at(0));
    await t.flush();
    t.presence('d1', false, at(100));
    await t.flush();
    t.report('d1', {}, at(200));
    await t.flush();
    t.report('d1', { online: false }, at(300));
    await t.flush();
    t.report('d1', {}, at(400));
    await t.flush();
    expect(flushes).toEqual([['d1'], ['d1'], ['d1'], ['d1'], ['d1']]);
  });

  it('counts a flush once however many statements its chunks take (as the flush metric does)', async () => {
    const flushes: string[][] = [];
    const t = batcher(flushes);
    t.chunk = 1;
    t.report('d1', { battery: 80 }, at(0));
    t.report('d2', { battery: 70 }, at(0));
    await t.flush();
    expect(flushes).toEqual([['d1'], ['d2']]);
    expect(t.counts).toMatchObject({ flushes: 1, statements: 2 });
  });

  it('merges what arrives while the database is writing into one row a device, every report kept as history', async () => {
    const flushes: string[][] = [];
    const statements: string[] = [];
    let open = () => {};
    const t = batcher(flushes, statements, new Promise<void>((resolve) => (open = resolve)));
    t.report('d1', { battery: 1 }, at(0));
    const first = t.flush();
    await new Promise(setImmediate);
    // The first write is under way, held; three more flush intervals pass meanwhile.
    t.report('d1', { battery: 2 }, at(100));
    void t.flush();
    t.report('d1', { battery: 3 }, at(200));
    void t.flush();
    t.report('d2', { battery: 9 }, at(300));
    const last = t.flush();
    open();
    await Promise.all([first, last]);
    expect(flushes).toEqual([['d1'], ['d1', 'd2']]);
    const battery = (text: string) => [...text.matchAll(/\\"battery\\":(\d+)/g)].map((m) => Number(m[1]));
    // d1: its news (battery 3) and both reports as history points (2, 3); d2: news and point (9).
    expect(battery(statements[1]!).sort()).toEqual([2, 3, 3, 9, 9]);
  });

  it('holds nothing after the clock steps back', async () => {
    const flushes: string[][] = [];
    const t = batcher(flushes);
    t.report('d1', {}, at(10_000));
    await t.flush();
    t.report('d1', {}, at(0));
    await t.flush();
    t.report('d1', {}, at(300));
    await t.flush();
    expect(flushes).toEqual([['d1'], ['d1']]);
  });

  it('merges the state a reply carried without marking the device online again (it may be gone by then)', async () => {
    const statements: string[] = [];
    const t = batcher([], statements);
    t.presence('d1', false, at(0));
    t.report('d1', { fw_version: '5.0.0' }, at(100), false);
    await t.flush();
    t.report('d1', { fw_version: '5.0.1' }, at(200), false);
    await t.flush();
    const online = (text: string) => /\\"online\\":(true|false)/.exec(text)?.[1];
    expect(statements.map(online)).toEqual(['false', undefined]);
    expect(statements[1]).toContain('5.0.1');
    expect(statements[1]).not.toContain('seen_at');
  });

  it('writes fewer devices a statement after one ran past the target, so a query waits less', async () => {
    // Each statement takes 0.25 ms a device on this clock: 250 devices 62.5 ms; 40 would fit the 10 ms target, the floor is 50.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const sizes: number[] = [];
    const t = new TelemetryBatcher(
      {
        execute: async (q: SQL) => {
          const devices = JSON.parse(String(new PgDialect().sqlToQuery(q).params[0])) as unknown[];
          sizes.push(devices.length);
          clock += devices.length * 0.25;
          return { rows: [] };
        },
      } as unknown as Db,
      { intervalMs: 60_000, onWoken: () => undefined, onRefused: () => undefined, onError: (e) => Promise.reject(e) },
    );
    try {
      for (let i = 0; i < 600; i++) t.report(`d${String(i).padStart(3, '0')}`, { battery: 50 }, at(0));
      await t.flush();
    } finally {
      now.mockRestore();
    }
    expect(sizes).toEqual([250, 125, 62, 50, 50, 50, 13]);
  });
});
