import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { SEND_BATCH } from '../../src/domain/rollout/send-rollout.ts';
import { eventually } from '../helpers/devices.ts';
import { ACME, act, get, nameOf, prefix, rollout, s, sends, useRolloutWorld } from '../helpers/rollout-world.ts';

// The engine claims a stage, and settles the devices in flight at its full steps, a part
// (SEND_BATCH devices) a step, so no step holds the database for a whole stage
// (bench/notes/rollout-bench.md, s24c); the parts must still reach every device, once.
useRolloutWorld();

const tick = (at: Date) => s.app.rollouts.engine.tick(at);
const rows = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await s.app.db.execute(q));
const N = 2 * SEND_BATCH + 20;

/**
 * N devices, asleep and never connected (their updates are written held, which is all a claim
 * decides), and a rollout of them in one stage inside a window two hours ahead: the engine's own
 * steps (the real clock) claim nothing, so each step given a clock inside it is seen alone.
 */
async function sleepingRollout(p: string) {
  await s.app.db.execute(sql`
    insert into devices (name, entity, mqtt_secret_hash)
    select ${p} || lpad(to_hex(i), 4, '0'), ${ACME}, 'x' from generate_series(0, ${N - 1}) i`);
  const now = new Date();
  const hh = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
  const days = [0, 1, 2, 3, 4, 5, 6];
  const window = { days, from: hh(now.getUTCHours() + 2), to: hh(now.getUTCHours() + 3), tz: 'UTC' };
  const inside = new Date(now);
  inside.setUTCHours(now.getUTCHours() + 2, 30);
  const id = await rollout(p, { canary: 0, percents: [100], window, max_in_flight: N });
  expect((await act(id, 'start')).status).toBe(200);
  return { id, inside };
}

describe('a stage larger than one part', () => {
  it('is claimed one part a step, devices on the version skipped in their part, every device sent once', async () => {
    const p = prefix();
    const { id, inside } = await sleepingRollout(p);
    // Two devices of the second part reach the version after the start: skipped when it comes.
    const current = [nameOf(p, SEND_BATCH + 10), nameOf(p, SEND_BATCH + 11)];
    await s.app.db.execute(sql`update devices set fw_version = '2.0.0' where name in (${current[0]}, ${current[1]})`);
    const taken: number[] = [];
    for (let i = 0; i < 4; i++) {
      await tick(inside);
      const [row] = await rows<{ n: string }>(
        sql`select count(*) as n from rollout_devices where rollout = ${id} and state <> 'waiting'`,
      );
      taken.push(Number(row!.n));
    }
    expect(taken).toEqual([SEND_BATCH, 2 * SEND_BATCH, N, N]);
    expect((await get(id)).counts).toMatchObject({ total: N, skipped: 2, in_flight: N - 2, waiting: 0 });
    const sent = await sends(p);
    expect(sent).toHaveLength(N - 2);
    expect(sent.every((x) => x.n === '1')).toBe(true);
    expect(sent.map((x) => x.device)).not.toContain(current[0]);
  });

  it('settles its devices in flight a part a full step, past a first part that never answers', async () => {
    const p = prefix();
    const { id, inside } = await sleepingRollout(p);
    for (let i = 0; i < 3; i++) await tick(inside);
    expect((await get(id)).counts).toMatchObject({ in_flight: N });
    // All but the first part's commands succeed with no event reaching the engine: only its full
    // steps (the timer's and these) can find them, a part at a time.
    await s.app.db.execute(sql`
      update commands set state = 'succeeded', replied_at = now()
      where device like ${`${p}%`} and device >= ${nameOf(p, SEND_BATCH)}`);
    await eventually(async () => {
      await tick(new Date());
      expect((await get(id)).counts).toMatchObject({ in_flight: SEND_BATCH, succeeded: N - SEND_BATCH });
    }, 30_000);
    // Devices settled in one step share its `now()`: no step settled more than a part.
    const steps = await rows<{ n: string }>(sql`
      select count(*) as n from rollout_devices where rollout = ${id} and state = 'succeeded' group by settled_at`);
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...steps.map((x) => Number(x.n)))).toBeLessThanOrEqual(SEND_BATCH);
  });
});
