import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createReportBatcher } from './create-report-batcher.ts';

const session = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const BAD = session(7);

/**
 * A database that refuses any transaction whose reports include session BAD (as a data error), and
 * otherwise finds no open session: what the batcher does with a refused flush.
 */
function fakeDb(seen: string[][]) {
  const dialect = new PgDialect();
  return {
    transaction: async (fn: (tx: unknown) => Promise<unknown>) => {
      const ids: string[] = [];
      const tx = {
        // The sessions are read from the statement's parameters as PostgreSQL would receive them.
        execute: async (q: SQL) => {
          const text = JSON.stringify(dialect.sqlToQuery(q).params);
          for (let i = 0; i < 20; i++) if (text.includes(session(i))) ids.push(session(i));
          if (ids.includes(BAD)) throw Object.assign(new Error('refused'), { code: '22P02' });
          return { rows: [] };
        },
      };
      const out = await fn(tx);
      seen.push(ids);
      return out;
    },
  } as unknown as Db;
}

describe('ReportBatcher', () => {
  it('splits a refused flush by session: the other sessions are applied, the culprit alone is dropped', async () => {
    const seen: string[][] = [];
    const refused: string[] = [];
    const batcher = createReportBatcher({
      db: fakeDb(seen),
      relay: async () => undefined,
      onRefused: (s) => refused.push(s),
      intervalMs: 5,
    });
    const outcomes = Array.from({ length: 12 }, (_, i) =>
      batcher.add(`d${i}`, { type: 'provision', session_id: session(i), phase: 'ready', n: 1 }).then(
        () => 'applied',
        () => 'dropped',
      ),
    );
    await batcher.flush();
    expect(await Promise.all(outcomes)).toEqual(outcomes.map((_, i) => (i === 7 ? 'dropped' : 'applied')));
    expect(refused).toEqual([BAD]);
    // Every good session went through in a flush that succeeded.
    expect(new Set(seen.flat())).toEqual(
      new Set(Array.from({ length: 12 }, (_, i) => session(i)).filter((s) => s !== BAD)),
    );
  });

  it('close() applies what is queued', async () => {
    const seen: string[][] = [];
    const batcher = createReportBatcher({
      db: fakeDb(seen),
      relay: async () => undefined,
      onRefused: () => undefined,
      intervalMs: 10_000,
    });
    const done = batcher.add('d1', { type: 'provision', session_id: session(1), phase: 'ready' });
    await batcher.close();
    await done;
    expect(seen.flat()).toContain(session(1));
  });
});
