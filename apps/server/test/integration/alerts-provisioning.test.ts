import { describe, expect, it } from 'vitest';
import { alertsOf, createRule, later, ofRule } from '../helpers/alerts.ts';
import { readEvents } from '../helpers/sse.ts';
import {
  ACME,
  GLOBEX,
  begin,
  device,
  play,
  report,
  s,
  t,
  useProvisioningWorld,
} from '../helpers/provisioning-world.ts';

// Issue 29: a provisioning session that failed raises `provisioning_failed` (from the session's
// end, in its transaction); the device's next completed session clears it.
useProvisioningWorld({ shared: true });

describe('provisioning failed', () => {
  it('is raised when a session fails (at once, or after the start delay), once, and cleared by the next completed one', async () => {
    await createRule(s, t.admin, ACME, {
      name: 'Provisioning slow',
      kind: 'provisioning_failed',
      start_delay_s: 60,
      clear_delay_s: 60,
    });
    const d = await device();
    const first = await begin(d);
    await report(d, first.session, { phase: 'ready' });
    await report(d, first.session, { phase: 'failed', error: 'storage full' });
    await waitIdle(d.name);
    const list = () => alertsOf(s, t.operator, ACME, d.name);
    const now = await eventually(list, (l) => ofRule(l, 'Provisioning failed').length === 1);
    expect(ofRule(now, 'Provisioning failed')[0]).toMatchObject({
      kind: 'provisioning_failed',
      status: 'active',
      detail: { result: 'failed', error: 'storage full', session_id: first.session },
    });
    expect(ofRule(now, 'Provisioning slow')).toEqual([]);
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await list(), 'Provisioning slow')[0]!.status).toBe('active');

    // A second failure (some files failed: partial) keeps the one alert.
    const second = await begin(d);
    await play(d, second.session, second.files, [second.files[0]!.device_path]);
    await waitIdle(d.name);
    expect(ofRule(await list(), 'Provisioning failed')).toHaveLength(1);

    const third = await begin(d);
    await play(d, third.session, third.files);
    await waitIdle(d.name);
    expect(ofRule(await list(), 'Provisioning failed')[0]).toMatchObject({
      status: 'cleared',
      cleared_by: 'condition',
    });
    expect(ofRule(await list(), 'Provisioning slow')[0]!.status).toBe('active');
    await s.app.alerts.evaluator.sweep(later(61));
    expect(ofRule(await list(), 'Provisioning slow')[0]!.status).toBe('cleared');
    expect((await s.request('GET', `/api/v1/tenant/${GLOBEX}/alerts`, { token: t.other })).body.total).toBe(0);
  });
});

describe('a session the server times out', () => {
  it('raises its alert and the header count learns of it at once', async () => {
    const d = await device();
    const counts: number[] = [];
    let opened!: () => void;
    const first = new Promise<void>((r) => (opened = r));
    const stream = readEvents(`${s.url}/api/v1/tenant/${ACME}/alerts/events`, t.operator, {
      onEvent: () => opened(),
      stopAfter: (e) => e.event === 'count' && counts.push(e.data.active) > 1 && e.data.active > counts[0]!,
    });
    await first;
    await begin(d);
    // Nothing from the device: the provisioning sweep ends the session after PROVISION_TIMEOUT_MS.
    await waitIdle(d.name);
    const { events } = await stream;
    expect(events.at(-1)!.data.active).toBe(counts[0]! + 1);
    expect(ofRule(await alertsOf(s, t.operator, ACME, d.name), 'Provisioning failed')[0]).toMatchObject({
      status: 'active',
      detail: { result: 'timeout' },
    });
  });
});

/** Polls `read` until `done` says its answer will do (5 s at most). */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean | Promise<boolean>): Promise<T> {
  for (let i = 0; ; i++) {
    const v = await read();
    if ((await done(v)) || i > 100) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the device's session has ended (it has no session open). */
async function waitIdle(name: string): Promise<void> {
  await eventually(
    async () => (await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: t.admin })).body.data,
    (d) => d.current_provision === null,
  );
}
