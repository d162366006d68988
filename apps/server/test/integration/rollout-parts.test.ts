import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { SEND_BATCH } from '../../src/domain/rollout/send-rollout.ts';
import { ACME, act, get, nameOf, prefix, rollout, s, sends, useRolloutWorld } from '../helpers/rollout-world.ts';

// The engine claims a stage a part (SEND_BATCH devices) a step, so no step holds the database for
// a whole stage (bench/notes/rollout-bench.md, s24c); the part must still take every device once.
useRolloutWorld();

const tick = (at: Date) => s.app.rollouts.engine.tick(at);

describe('a stage larger than one part', () => {
  it('is claimed one part a step, devices on the version skipped in their part, every device sent once', async () => {
    const p = prefix();
    const n = 2 * SEND_BATCH + 20;
    // Asleep and never connected: their updates are written held, which is all a claim decides.
    await s.app.db.execute(sql`
      insert into devices (name, entity, mqtt_secret_hash)
      select ${p} || lpad(to_hex(i), 4, '0'), ${ACME}, 'x' from generate_series(0, ${n - 1}) i`);
    // A window two hours ahead: the engine's own steps (the real clock) claim nothing, so each
    // step given a clock inside it is seen alone.
    const now = new Date();
    const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
    const window = {
      days: [0, 1, 2, 3, 4, 5, 6],
      from: hh(now.getUTCHours() + 2),
      to: hh(now.getUTCHours() + 3),
      tz: 'UTC',
    };
    const inside = new Date(now);
    inside.setUTCHours(now.getUTCHours() + 2, 30);
    const id = await rollout(p, { canary: 0, percents: [100], window, max_in_flight: n });
    expect((await act(id, 'start')).status).toBe(200);
    // Two devices of the second part reach the version after the start: skipped when it comes.
    const current = [nameOf(p, SEND_BATCH + 10), nameOf(p, SEND_BATCH + 11)];
    await s.app.db.execute(sql`update devices set fw_version = '2.0.0' where name in (${current[0]}, ${current[1]})`);
    const taken: number[] = [];
    for (let i = 0; i < 4; i++) {
      await tick(inside);
      const [row] = rowsOf<{ n: string }>(
        await s.app.db.execute(
          sql`select count(*) as n from rollout_devices where rollout = ${id} and state <> 'waiting'`,
        ),
      );
      taken.push(Number(row!.n));
    }
    expect(taken).toEqual([SEND_BATCH, 2 * SEND_BATCH, n, n]);
    expect((await get(id)).counts).toMatchObject({ total: n, skipped: 2, in_flight: n - 2, waiting: 0 });
    const sent = await sends(p);
    expect(sent).toHaveLength(n - 2);
    expect(sent.every((x) => x.n === '1')).toBe(true);
    expect(sent.map((x) => x.device)).not.toContain(current[0]);
  });
});
