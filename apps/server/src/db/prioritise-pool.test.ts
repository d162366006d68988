import { EventEmitter } from 'node:events';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PoolProbe } from './pool-probe.ts';
import { prioritisePool } from './prioritise-pool.ts';

type Answer = (err: Error | null, result?: unknown) => void;

/**
 * A connection the real pg.Pool opens: it records each statement and answers only when the test
 * says so (`answer`), so the order in which queries reach the database is the test's to read.
 */
function fakeDatabase() {
  const sent: string[] = [];
  const open: Array<{ text: string; cb: Answer }> = [];
  let refuseNextConnect = false;
  class FakeClient extends EventEmitter {
    _queryable = true;
    _ending = false;
    connect(cb: (err?: Error) => void) {
      const refused = refuseNextConnect;
      refuseNextConnect = false;
      setImmediate(() => cb(refused ? new Error('connection refused') : undefined));
    }
    query(text: string, values?: unknown, cb?: Answer) {
      sent.push(text);
      const answer = typeof values === 'function' ? (values as Answer) : cb;
      if (answer) return void open.push({ text, cb: answer });
      // A client's own promise form, as a transaction's statements use it.
      return new Promise((resolve, reject) =>
        open.push({ text, cb: (err, result) => (err ? reject(err) : resolve(result)) }),
      );
    }
    end(cb?: () => void) {
      this._ending = true;
      setImmediate(() => cb?.());
    }
  }
  return {
    Client: FakeClient,
    sent,
    refuseNextConnect: () => void (refuseNextConnect = true),
    /** Answers the oldest open statement (with `err` to fail it). */
    answer(err?: Error) {
      const q = open.shift();
      if (!q) throw new Error('no statement is open');
      q.cb(err ?? null, { rows: [], command: 'SELECT', rowCount: 0, fields: [] });
    },
  };
}

/** Lets every callback and promise already due run (no time passes). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

function setUp(max = 1) {
  const db = fakeDatabase();
  const pool = new pg.Pool({ max, Client: db.Client as unknown as typeof pg.Client });
  let interactive = false;
  const lane = prioritisePool(pool, () => interactive);
  /** Starts a query as an operator's request (true) or as background work. */
  const query = (text: string, asRequest = false) => {
    interactive = asRequest;
    const q = pool.query(text);
    interactive = false;
    return q;
  };
  return { db, pool, lane, query };
}

describe('a pg.Pool behind the priority lane', () => {
  it("sends a request's query before background queries that waited longer", async () => {
    const { db, pool, query } = setUp();
    const held = await pool.connect();
    const done = [query('reply 1'), query('reply 2'), query('GET device', true)];
    await settle();
    expect(db.sent).toEqual([]);
    held.release();
    for (let i = 0; i < 3; i++) {
      await settle();
      db.answer();
    }
    await Promise.all(done);
    expect(db.sent).toEqual(['GET device', 'reply 1', 'reply 2']);
  });

  it('keeps a transaction on its client: its statements never wait behind the lane', async () => {
    const { db, pool, query } = setUp();
    const tx = await pool.connect();
    const waiting = query('GET device', true);
    const first = tx.query('begin');
    await settle();
    db.answer();
    await first;
    const second = tx.query('commit');
    await settle();
    db.answer();
    await second;
    tx.release();
    await settle();
    db.answer();
    await waiting;
    expect(db.sent).toEqual(['begin', 'commit', 'GET device']);
  });

  it('gives the slot back when a query fails, and the next caller runs', async () => {
    const { db, query } = setUp();
    const failing = query('broken');
    const next = query('next');
    await settle();
    db.answer(new Error('syntax error'));
    await expect(failing).rejects.toThrow('syntax error');
    await settle();
    db.answer();
    await next;
    expect(db.sent).toEqual(['broken', 'next']);
  });

  it('gives the slot back when connecting fails, and the next caller connects', async () => {
    const { db, query } = setUp();
    db.refuseNextConnect();
    const refused = query('first');
    const next = query('second');
    await expect(refused).rejects.toThrow('connection refused');
    await settle();
    db.answer();
    await next;
    expect(db.sent).toEqual(['second']);
  });

  it('tells the metrics how many callers wait, in the lane or the pool', async () => {
    const { pool, lane, query } = setUp();
    const probe = new PoolProbe(pool, lane);
    const held = await pool.connect();
    const waiting = [query('a'), query('b', true)];
    await settle();
    expect(probe.use()).toMatchObject({ total: 1, waiting: 2 });
    held.release();
    await settle();
    expect(probe.use().waiting).toBe(1);
    void waiting;
  });
});
