import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/raw-sql.ts';
import { eventually } from '../helpers/devices.ts';
import {
  ACME,
  act,
  api,
  fleet,
  fw,
  get,
  GLOBEX,
  mode,
  nameOf,
  prefix,
  rollout,
  s,
  sends,
  t,
  useRolloutWorld,
} from '../helpers/rollout-world.ts';

useRolloutWorld({}, { shared: true });

describe('rollouts', () => {
  it('counts per stage in a dry run, skips devices already on the version, and advances on the success threshold', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok', 'ok', 'ok', 'current']);
    const dry = await api('POST', '/dry-run', {
      firmware_id: fw,
      target: { kind: 'filter', query: `search=${p}` },
      canary: 1,
      percents: [50, 100],
    });
    expect(dry.body.data).toEqual({
      total: 5,
      skipped: 1,
      eligible: 4,
      stages: [
        { label: 'Canary (1)', size: 1 },
        { label: '50 %', size: 1 },
        { label: '100 %', size: 2 },
      ],
    });
    const id = await rollout(p, { canary: 1, percents: [50, 100] });
    expect((await act(id, 'start')).status).toBe(200);
    await eventually(async () => expect((await get(id)).state).toBe('finished'), 15_000);
    const r = await get(id);
    expect(r.counts).toMatchObject({ total: 5, succeeded: 4, skipped: 1, failed: 0 });
    expect(r.stages.map((x: { succeeded: number }) => x.succeeded)).toEqual([1, 1, 2]);
    const sent = await sends(p);
    expect(sent).toHaveLength(4);
    expect(sent.every((x) => x.n === '1')).toBe(true);
    const audit = rowsOf<{ action: string; actor_kind: string }>(
      await s.app.db.execute(
        sql`select action, actor_kind from audit_entries where target_type = 'rollout' and target_name = ${`r ${p}`} order by id`,
      ),
    );
    expect(audit.map((a) => a.action)).toEqual(['rollout.create', 'rollout.start', 'rollout.finish']);
  });

  it('pauses by itself on the error threshold with the reason, sends nothing more, and finishes after a retry', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok', 'ok']);
    const id = await rollout(p, { canary: 1, percents: [100], error_threshold_pct: 0 });
    // The canary is the first device in the rollout's fixed random order: its update is the bad one.
    const [first] = rowsOf<{ name: string }>(
      await s.app.db.execute(
        sql`select name from devices where name like ${`${p}%`} order by md5(${id} || name) limit 1`,
      ),
    );
    const canary = first!.name;
    mode.set(canary, 'bad');
    expect((await act(id, 'start')).status).toBe(200);
    await eventually(async () => expect((await get(id)).state).toBe('paused'), 15_000);
    const paused = await get(id);
    expect(paused.pause_reason).toBe(
      'Stage Canary (1): 1 of 1 devices failed (100 %), over the error threshold of 0 %',
    );
    await s.app.rollouts.engine.tick();
    await s.app.rollouts.engine.tick();
    expect((await sends(p)).map((x) => x.device)).toEqual([canary]);
    const devs = await api('GET', `/${id}/devices?state=failed`);
    expect(devs.body.data).toEqual([expect.objectContaining({ device: canary, error: 'Install failed: bad image' })]);
    mode.set(canary, 'ok');
    expect((await act(id, 'retry')).status).toBe(200);
    await eventually(async () => expect((await get(id)).state).toBe('finished'), 15_000);
    expect((await get(id)).counts).toMatchObject({ succeeded: 3, failed: 0 });
    expect((await sends(p)).find((x) => x.device === canary)!.n).toBe('2');
    expect((await act(id, 'retry')).status).toBe(409);
  });

  it('counts a device that never answers as failed after the report timeout (injected clock)', async () => {
    const p = prefix();
    await fleet(p, ['silent']);
    const id = await rollout(p, { canary: 0, percents: [100], report_timeout_s: 600, error_threshold_pct: 50 });
    await act(id, 'start');
    await eventually(async () => expect((await get(id)).counts.in_flight).toBe(1));
    await eventually(async () => expect((await sends(p))[0]?.n).toBe('1'));
    const [c] = rowsOf<{ state: string }>(
      await s.app.db.execute(sql`select state from commands where device = ${nameOf(p, 0)}`),
    );
    expect(c!.state).toBe('sent');
    await s.app.rollouts.engine.tick(new Date(Date.now() + 599_000));
    expect((await get(id)).counts.in_flight).toBe(1);
    await s.app.rollouts.engine.tick(new Date(Date.now() + 601_000));
    const r = await get(id);
    expect(r.counts).toMatchObject({ failed: 1, in_flight: 0 });
    expect(r.state).toBe('paused');
    const devs = await api('GET', `/${id}/devices`);
    expect(devs.body.data[0].error).toBe('No report within 600 s');
  });

  it('counts a device whose reply was lost as succeeded once it reports the new version', async () => {
    const p = prefix();
    await fleet(p, ['reply-lost']);
    const id = await rollout(p, { canary: 0, percents: [100], report_timeout_s: 600, error_threshold_pct: 50 });
    await act(id, 'start');
    await eventually(async () => expect((await get(id)).state).toBe('finished'), 15_000);
    expect((await get(id)).counts).toMatchObject({ succeeded: 1, failed: 0 });
    const [c] = rowsOf<{ state: string }>(
      await s.app.db.execute(sql`select state from commands where device = ${nameOf(p, 0)}`),
    );
    expect(c!.state).toBe('sent');
  });

  it('settles a device whose command ended with no event reaching the engine at its next full step', async () => {
    const p = prefix();
    await fleet(p, ['silent']);
    const id = await rollout(p, { canary: 0, percents: [100], report_timeout_s: 600 });
    await act(id, 'start');
    await eventually(async () => expect((await sends(p))[0]?.n).toBe('1'));
    // Settled as on another instance whose `commands.settled` never came here: the row alone changes.
    await s.app.db.execute(
      sql`update commands set state = 'succeeded', replied_at = now() where device = ${nameOf(p, 0)}`,
    );
    await s.app.rollouts.engine.tick();
    expect((await get(id)).state).toBe('finished');
    expect((await get(id)).counts).toMatchObject({ succeeded: 1, in_flight: 0 });
  });

  it('holds the next stage for approval, pauses, resumes and cancels on request', async () => {
    const p = prefix();
    await fleet(p, ['ok', 'ok', 'ok', 'ok']);
    const id = await rollout(p, { canary: 1, percents: [100], approval: true, max_in_flight: 1 });
    await act(id, 'start');
    await eventually(async () => expect((await get(id)).state).toBe('awaiting_approval'), 15_000);
    await s.app.rollouts.engine.tick();
    expect(await sends(p)).toHaveLength(1);
    expect((await act(id, 'pause')).body.data.state).toBe('paused');
    expect((await act(id, 'approve')).status).toBe(409);
    expect((await act(id, 'resume')).body.data.state).toBe('running');
    await eventually(async () => expect((await get(id)).state).toBe('awaiting_approval'), 15_000);
    const approved = await act(id, 'approve', t.operator);
    expect(approved.status).toBe(200);
    expect(approved.body.data.current_stage).toBe(1);
    expect((await act(id, 'cancel')).body.data.state).toBe('cancelled');
    // Nothing new is sent once cancelled (devices already in flight finish).
    const atCancel = (await sends(p)).length;
    await s.app.rollouts.engine.tick();
    await s.app.rollouts.engine.tick(new Date(Date.now() + 60_000));
    expect(await sends(p)).toHaveLength(atCancel);
    expect((await get(id)).counts.waiting).toBeGreaterThan(0);
    expect((await act(id, 'resume')).status).toBe(409);
    const actions = rowsOf<{ action: string }>(
      await s.app.db.execute(sql`select action from audit_entries where target_name = ${`r ${p}`} order by id`),
    ).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['rollout.pause', 'rollout.resume', 'rollout.approve', 'rollout.cancel']),
    );
  });

  it('another entity can neither see nor act on a rollout; bad input is a 400', async () => {
    const p = prefix();
    await fleet(p, ['ok']);
    const id = await rollout(p);
    expect((await s.request('GET', `/api/v1/tenant/${ACME}/rollouts/${id}`, { token: t.other })).status).toBe(404);
    expect(
      (await s.request('POST', `/api/v1/tenant/${ACME}/rollouts/${id}/start`, { token: t.other, body: {} })).status,
    ).toBe(404);
    const globex = GLOBEX;
    for (const path of [`/${id}`, `/${id}/devices`]) {
      const res = await s.request('GET', `/api/v1/tenant/${globex}/rollouts${path}`, { token: t.other });
      expect(res.status).toBe(404);
    }
    const list = await s.request('GET', `/api/v1/tenant/${globex}/rollouts`, { token: t.other });
    expect(list.body.data).toEqual([]);
    expect(
      (await s.request('POST', `/api/v1/tenant/${globex}/rollouts/${id}/start`, { token: t.other, body: {} })).status,
    ).toBe(404);
    expect((await get(id)).state).toBe('draft');
    const bad = await api('POST', '', { name: 'x', firmware_id: fw, target: { kind: 'filter', query: 'colour=red' } });
    expect(bad.status).toBe(400);
    const badStages = await api('POST', '', { name: 'x', firmware_id: fw, target: { kind: 'entity' }, percents: [50] });
    expect(badStages.status).toBe(400);
    expect((await api('POST', `/${id}/explode`, {})).status).toBe(400);
  });
});
