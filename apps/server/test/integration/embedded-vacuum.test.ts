import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database, type Db } from '../../src/db/client.ts';
import { maintainOneTable, startEmbeddedVacuum } from '../../src/db/embedded-vacuum.ts';
import { rowsOf } from '../../src/db/raw-sql.ts';

// Issues 27 and 32: PGlite runs no autovacuum, so the embedded server vacuums its tables itself.
let database: Database;
let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'embedded-vacuum-'));
  database = await openDatabase({ dataDir: dir });
  const db = database.db;
  for (const t of ['vac_churn', 'vac_quiet']) {
    await db.execute(sql.raw(`create table ${t} (id int primary key, v int not null)`));
    await db.execute(sql.raw(`insert into ${t} select g, 0 from generate_series(1, 1000) g`));
    // As the job's first runs would: the planner's row count (pg_class.reltuples) is 1,000.
    await db.execute(sql.raw(`analyze ${t}`));
  }
}, 60_000);
afterAll(async () => {
  await database?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function counters(db: Db, table: string) {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const [row] = rowsOf<{ dead: number; vacuumed: boolean }>(
    await db.execute(sql`
      select n_dead_tup::int as dead, last_vacuum is not null as vacuumed
      from pg_stat_user_tables where relname = ${table}`),
  );
  return row!;
}

/** Every row of `table` updated `times` times: as many dead row versions each time. */
async function churn(db: Db, table: string, times: number, upTo = 1000) {
  for (let i = 0; i < times; i++) await db.execute(sql.raw(`update ${table} set v = v + 1 where id <= ${upTo}`));
}

function fakeLog() {
  const info = vi.fn();
  const error = vi.fn();
  return { log: { info, error } as unknown as FastifyBaseLogger, info, error };
}

describe('the embedded vacuum', () => {
  it('vacuums the table past the threshold, not the one under it, and sets its visibility map', async () => {
    const db = database.db;
    // 2,000 dead rows on 1,000 live (threshold 250); 100 on 1,000 under it.
    await churn(db, 'vac_churn', 2);
    await churn(db, 'vac_quiet', 1, 100);

    const done = await maintainOneTable(db);

    expect(done).toMatchObject({ table: 'public.vac_churn', work: 'vacuum' });
    expect(await counters(db, 'vac_churn')).toEqual({ dead: 0, vacuumed: true });
    // The next run leaves the table under its threshold alone (whatever else it finds to do).
    expect(await maintainOneTable(db)).not.toMatchObject({ table: 'public.vac_quiet', work: 'vacuum' });
    expect(await counters(db, 'vac_quiet')).toEqual({ dead: 100, vacuumed: false });
    // All-visible pages: an index-only scan no longer reads the table.
    await db.execute(sql`set enable_seqscan = off`);
    await db.execute(sql`set enable_bitmapscan = off`);
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await db.execute(sql`explain (analyze) select id from vac_churn where id > 0`),
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    await db.execute(sql`reset enable_seqscan`);
    await db.execute(sql`reset enable_bitmapscan`);
    expect(plan).toContain('Index Only Scan');
    expect(plan).toContain('Heap Fetches: 0');
  });

  it('logs a failed run and goes on with the next', async () => {
    const db = database.db;
    let broken = true;
    const flaky = new Proxy(db, {
      get: (target, key, receiver) =>
        key === 'execute' && broken
          ? () => Promise.reject(new Error('the database is away'))
          : Reflect.get(target, key, receiver),
    });
    const { log, info, error } = fakeLog();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const job = startEmbeddedVacuum(flaky, log, 1_000);
    try {
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitUntil(() => error.mock.calls.length > 0, { timeout: 10_000 });
      expect(error).toHaveBeenCalledWith(
        { err: expect.objectContaining({ message: 'the database is away' }) },
        'database: vacuum failed',
      );

      broken = false;
      await churn(db, 'vac_churn', 1);
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitUntil(() => info.mock.calls.length > 0, { timeout: 20_000 });
      expect(info.mock.calls[0]![0]).toMatchObject({ table: 'public.vac_churn', work: 'vacuum' });
      expect((await counters(db, 'vac_churn')).dead).toBe(0);
    } finally {
      await job.stop();
      vi.useRealTimers();
    }
  }, 60_000);
});
