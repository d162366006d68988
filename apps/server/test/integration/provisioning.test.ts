import { describe, expect, it } from 'vitest';
import { eventually, randomDeviceId, registerDevice } from '../helpers/devices.ts';
import { readEvents, type SseEvent } from '../helpers/sse.ts';
import {
  s,
  ACME,
  GLOBEX,
  t,
  useProvisioningWorld,
  device,
  path,
  start,
  watch,
  begin,
  report,
  play,
  names,
  fileEvents,
} from '../helpers/provisioning-world.ts';

/**
 * Provisioning through the real server with a device speaking the protocol by hand: the event
 * stream's full sequence for each outcome, cancel, timeout, replay from Last-Event-ID, access.
 */
useProvisioningWorld({ shared: true });

describe('provisioning', () => {
  it('sends the union of entity, site and group files (the group wins on a shared path), signed and hashed', async () => {
    const d = await device();
    const { files } = await begin(d);
    expect(files.map((f) => [f.device_path, f.filename]).sort()).toEqual([
      ['config/app.json', 'group-app.json'],
      ['site/map.png', 'map.png'],
      ['sounds/bell.wav', 'bell.wav'],
    ]);
    for (const f of files) {
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(f.size).toBe(64);
      const got = await fetch(f.url);
      expect(got.status).toBe(200);
      expect((await got.arrayBuffer()).byteLength).toBe(64);
    }
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.name}`, { token: t.admin });
    expect(dev.body.data.state.current).toBe('PROVISIONING');
    expect(dev.body.data.current_provision).toBeTruthy();
  });

  it('streams the full sequence of a success and closes; the device leaves provisioning', async () => {
    const d = await device();
    const { session, files } = await begin(d);
    const watching = watch(d);
    await play(d, session, files);
    const { events, closedByServer } = await watching;
    expect(closedByServer).toBe(true);
    expect(names(events)).toEqual([
      'connection',
      'provision_started',
      'provisioning_ready',
      ...fileEvents(3),
      'provision_finalizing',
      'provision_completed',
    ]);
    expect(events[1]!.data).toMatchObject({ total: 3, total_files: 3 });
    expect(events[1]!.data.files).toHaveLength(3);
    expect(events.at(-1)!.data).toMatchObject({ outcome: 'success', completed_files: 3, failed_files: 0 });
    const ids = events.slice(1).map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => `${session}:${i + 1}`));
    const updated = events.find((e) => e.event === 'file_updated' && e.data.status === 'downloading')!;
    expect(updated.data).toMatchObject({ downloading_files: 1, filename: expect.any(String) });
    await eventually(async () => {
      const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${d.name}`, { token: t.admin });
      expect(dev.body.data.current_provision).toBeNull();
      expect(dev.body.data.state.current).not.toBe('PROVISIONING');
    });
    const kept = await s.request('GET', path(d), { token: t.operator });
    expect(kept.body.data).toMatchObject({
      status: 'provision_completed',
      completed_files: 3,
      eventType: 'provision_completed',
    });
    expect(kept.body.data.message).toHaveLength(events.length - 1);
  });

  it('a partial failure completes with the partial text and a total failure with the all-failed text', async () => {
    const d = await device();
    const first = await begin(d);
    const watching = watch(d);
    await play(d, first.session, first.files, [first.files[0].device_path]);
    const partial = await watching;
    expect(names(partial.events).at(-1)).toBe('provision_completed');
    expect(partial.events.at(-1)!.data).toMatchObject({
      outcome: 'partial',
      error: 'Provisioning Partially completed with errors',
      completed_files: 2,
      failed_files: 1,
    });
    const second = await begin(d);
    const again = watch(d);
    await play(
      d,
      second.session,
      second.files,
      second.files.map((f) => f.device_path),
    );
    const total = await again;
    expect(names(total.events)).toEqual([
      'connection',
      'provision_started',
      'provisioning_ready',
      ...fileEvents(3),
      'provision_finalizing',
      'provision_completed',
    ]);
    expect(total.events.at(-1)!.data).toMatchObject({
      outcome: 'failed',
      error: 'All files failed to provision',
      failed_files: 3,
    });
  });

  it('a failure the device reports ends the session with provision_failed; unfinished files fail', async () => {
    const d = await device();
    const { session } = await begin(d);
    const watching = watch(d);
    await report(d, session, { phase: 'ready' });
    await report(d, session, { phase: 'failed', error: 'storage full' });
    const { events, closedByServer } = await watching;
    expect(closedByServer).toBe(true);
    expect(names(events)).toEqual(['connection', 'provision_started', 'provisioning_ready', 'provision_failed']);
    expect(events.at(-1)!.data).toMatchObject({ error: 'storage full', failed_files: 3 });
  });

  it('refuses a second start while a session is open, and cancel tells the device and ends it', async () => {
    const d = await device();
    const { session } = await begin(d);
    const again = await start(d);
    expect(again.status).toBe(409);
    expect(again.body.errorInfo.userMessage).toBe(`Device ${d.name} is already being provisioned`);
    const watching = watch(d);
    const cancelled = d.nextCommand();
    const res = await s.request('POST', path(d, '/cancel'), { token: t.operator });
    expect(res.status).toBe(200);
    expect((await cancelled).body).toMatchObject({ type: 'provision_cancel', payload: { session_id: session } });
    const { events } = await watching;
    expect(names(events)).toEqual(['connection', 'provision_started', 'provision_failed']);
    expect(events.at(-1)!.data).toMatchObject({ status: 'cancelled', cancelled: true });
    // Late reports of the ended session change nothing.
    await report(d, session, { phase: 'ready' });
    expect((await s.request('POST', path(d, '/cancel'), { token: t.operator })).status).toBe(409);
    expect((await s.request('GET', path(d), { token: t.operator })).body.data.message).toHaveLength(2);
    // A new session may start at once.
    const next = await begin(d);
    expect(next.session).not.toBe(session);
  });

  it('ends a session that hears nothing with a timeout event', async () => {
    const d = await device();
    const { session } = await begin(d);
    await report(d, session, { phase: 'ready' });
    const { events } = await watch(d);
    expect(names(events)).toEqual(['connection', 'provision_started', 'provisioning_ready', 'timeout']);
    expect(events.at(-1)!.data).toMatchObject({ status: 'timeout' });
    expect((await s.request('GET', path(d), { token: t.operator })).body.data.status).toBe('timeout');
  }, 10_000);

  it('replays exactly what was missed over 100 forced reconnects with Last-Event-ID', async () => {
    const d = await device();
    const put = await s.request('PUT', `/api/v1/tenant/${ACME}/device/${d.name}`, {
      token: t.admin,
      body: { operator: { $set: { group: 'many' } } },
    });
    expect(put.status).toBe(200);
    const { session, files } = await begin(d);
    expect(files.length).toBe(36);
    // The device reports while the watcher cuts its stream after every event and reconnects.
    const reporting = play(d, session, files);
    const seen: SseEvent[] = [];
    let last: string | undefined;
    let reconnects = 0;
    for (;;) {
      const part = await readEvents(s.url + path(d, '/events'), t.operator, {
        ...(last ? { lastEventId: last } : {}),
        stopAfter: (e) => e.event !== 'connection',
      });
      expect(part.status).toBe(200);
      const got = part.events.filter((e) => e.event !== 'connection');
      seen.push(...got);
      if (got.length) last = got.at(-1)!.id;
      if (part.closedByServer) break;
      reconnects++;
    }
    await reporting;
    expect(reconnects).toBeGreaterThanOrEqual(100);
    const stored = (await s.request('GET', path(d), { token: t.operator })).body.data.message.length;
    expect(stored).toBe(2 + 36 * 3 + 2);
    expect(seen.map((e) => e.id)).toEqual(Array.from({ length: stored }, (_, i) => `${session}:${i + 1}`));
    expect(seen.at(-1)!.event).toBe('provision_completed');
  }, 60_000);

  it('answers 401 without a token and 404 for another entity’s device or a device never provisioned', async () => {
    const d = await device(false);
    expect((await readEvents(s.url + path(d, '/events'), undefined)).status).toBe(401);
    expect((await s.request('POST', path(d))).status).toBe(401);
    const otherEvents = await readEvents(s.url + path(d, '/events'), t.other);
    expect(otherEvents.status).toBe(404);
    const viaOwnPrefix = `/api/v1/tenant/${GLOBEX}/provision/${d.name}`;
    expect((await readEvents(s.url + viaOwnPrefix + '/events', t.other)).status).toBe(404);
    expect((await s.request('POST', viaOwnPrefix, { token: t.other })).status).toBe(404);
    expect((await s.request('POST', viaOwnPrefix + '/cancel', { token: t.other })).status).toBe(404);
    expect((await watch(d)).status).toBe(404);
  });

  it('refuses a device that is not connected, saying it has never connected', async () => {
    const name = randomDeviceId();
    await registerDevice(s, t.admin, ACME, name);
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/provision/${name}`, { token: t.operator });
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe(`Device ${name} has not connected yet`);
  });
});

/** A device's first two reports straight to a batcher: ready, then one file's status. */
