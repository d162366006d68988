import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { parseEventId } from '@fleet/shared/provision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreams } from '../../src/domain/provision/event-streams.ts';
import { createReportBatcher } from '../../src/domain/provision/create-report-batcher.ts';
import type { ReportBatcher } from '../../src/domain/provision/report-batcher.ts';
import { eventsAfter } from '../../src/domain/provision/session-store.ts';
import { createLocalBus, type ProvisionBusEvent, type StoredMark } from '../../src/lib/bus.ts';
import { connectDevice, eventually, randomDeviceId, registerDevice, type TestDevice } from '../helpers/devices.ts';
import type { TestServer } from '../helpers/server.ts';
import { readEvents, type SseEvent } from '../helpers/sse.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';

/**
 * Provisioning through the real server with a device speaking the protocol by hand: the event
 * stream's full sequence for each outcome, cancel, timeout, replay from Last-Event-ID, access.
 */
let s: TestServer;
let ACME = '';
let GLOBEX = '';
let t: Record<'admin' | 'other' | 'operator', string>;
const open: TestDevice[] = [];
const TIMEOUT_MS = 1500;

beforeAll(async () => {
  ({ s, acme: ACME, globex: GLOBEX, tokens: t } = await startForUploads({ PROVISION_TIMEOUT_MS: String(TIMEOUT_MS) }));
  const site = await s.request('POST', `/api/v1/tenant/${ACME}/site`, {
    token: t.admin,
    body: { document: { name: 'north', description: '', gps_coordinates: [52.1, 4.3] } },
  });
  const group = await s.request('POST', `/api/v1/tenant/${ACME}/dispenser`, {
    token: t.admin,
    body: { document: { name: 'line_2', description: '', location: { site: 'north' } } },
  });
  expect(group.status).toBe(201);
  const files: Array<Record<string, string>> = [
    { level: 'entity', entity_id: ACME, file_device_path: 'config/app.json', name: 'entity-app.json' },
    { level: 'entity', entity_id: ACME, file_device_path: 'sounds/bell.wav', name: 'bell.wav' },
    { level: 'site', site_id: site.body.data.id, file_device_path: 'site/map.png', name: 'map.png' },
    { level: 'group', group_id: group.body.data.id, file_device_path: 'config/app.json', name: 'group-app.json' },
  ];
  const many = await s.request('POST', `/api/v1/tenant/${ACME}/dispenser`, {
    token: t.admin,
    body: { document: { name: 'many', description: '' } },
  });
  for (let i = 0; i < 34; i++) {
    files.push({ level: 'group', group_id: many.body.data.id, file_device_path: `data/f${i}.bin`, name: `f${i}.bin` });
  }
  for (const { name, ...fields } of files) {
    if (!name) continue;
    const res = await upload(s, `/api/v1/tenant/${ACME}/files`, t.admin, { fields, filename: name, bytes: 64 });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
  await s?.close();
});

/** A connected device of ACME in group line_2 (so entity, site and group files apply). */
async function device(inGroup = true): Promise<TestDevice> {
  const name = randomDeviceId();
  const creds = await registerDevice(s, t.admin, ACME, name);
  if (inGroup) {
    const put = await s.request('PUT', `/api/v1/tenant/${ACME}/device/${name}`, {
      token: t.admin,
      body: { operator: { $set: { group: 'line_2' } } },
    });
    expect(put.status).toBe(200);
  }
  const d = await connectDevice(s, ACME, creds);
  open.push(d);
  await eventually(async () => {
    const dev = await s.request('GET', `/api/v1/tenant/${ACME}/device/${name}`, { token: t.admin });
    expect(dev.body.data.online).toBe(true);
  });
  return d;
}

const path = (d: TestDevice, tail = '') => `/api/v1/tenant/${ACME}/provision/${d.name}${tail}`;
const start = (d: TestDevice) => s.request('POST', path(d), { token: t.operator });
const watch = (d: TestDevice, lastEventId?: string) =>
  readEvents(s.url + path(d, '/events'), t.operator, lastEventId ? { lastEventId } : {});

/** Starts a session and answers the provision command the device received. */
async function begin(d: TestDevice) {
  const command = d.nextCommand();
  const res = await start(d);
  expect(res.status).toBe(200);
  const cmd = (await command).body;
  expect(cmd).toMatchObject({ type: 'provision', id: res.body.data.session_id });
  return { session: res.body.data.session_id as string, files: cmd.payload.files as Array<any> };
}

/** The device's reports, numbered per session (`n`) as the protocol asks. */
const numbers = new Map<string, number>();
const report = (d: TestDevice, session: string, body: object) => {
  const n = (numbers.get(session) ?? 0) + 1;
  numbers.set(session, n);
  return d.publish('events', { type: 'provision', session_id: session, n, ...body });
};

/** Plays a session on the device: every file queued, downloading, then completed unless in `failing`. */
async function play(d: TestDevice, session: string, files: Array<{ device_path: string }>, failing: string[] = []) {
  await report(d, session, { phase: 'ready' });
  for (const f of files) await report(d, session, { phase: 'file', device_path: f.device_path, status: 'queued' });
  for (const f of files) {
    await report(d, session, { phase: 'file', device_path: f.device_path, status: 'downloading' });
    const failed = failing.includes(f.device_path);
    await report(d, session, {
      phase: 'file',
      device_path: f.device_path,
      status: failed ? 'failed' : 'completed',
      ...(failed ? { error: 'hash mismatch' } : {}),
    });
  }
  await report(d, session, { phase: 'finalizing' });
  await report(d, session, { phase: 'completed' });
}

const names = (events: SseEvent[]) => events.map((e) => e.event);
const fileEvents = (n: number) => Array<string>(n * 3).fill('file_updated');

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

  it('refuses a device that is not connected', async () => {
    const name = randomDeviceId();
    await registerDevice(s, t.admin, ACME, name);
    const res = await s.request('POST', `/api/v1/tenant/${ACME}/provision/${name}`, { token: t.operator });
    expect(res.status).toBe(409);
    expect(res.body.errorInfo.userMessage).toBe(`Device ${name} is not connected`);
  });
});

/** A device's first two reports straight to a batcher: ready, then one file's status. */
const readyAndFile = (
  batcher: ReportBatcher,
  d: TestDevice,
  session: string,
  device_path: string,
  status: 'queued' | 'downloading',
) => [
  batcher.add(d.name, { type: 'provision', session_id: session, n: 1, phase: 'ready' }),
  batcher.add(d.name, { type: 'provision', session_id: session, n: 2, phase: 'file', device_path, status }),
];

/** A batcher in sole mode of its own (the server's does not hear these reports), holding `session`. */
async function soleBatcher(session: string, intervalMs?: number) {
  const relayed: ProvisionBusEvent[] = [];
  const batcher = createReportBatcher({
    db: s.app.db,
    sole: true,
    relay: async (events) => void relayed.push(...events),
    onRefused: (_id, err) => {
      throw err;
    },
    ...(intervalMs ? { intervalMs } : {}),
  });
  await batcher.adopt(session);
  return { batcher, relayed };
}

describe('reports applied in memory (one instance: the embedded database)', () => {
  it('sends a report’s event while the database is busy, and writes it after, numbered', async () => {
    const d = await device();
    const { session, files } = await begin(d);
    const { batcher, relayed } = await soleBatcher(session);
    // The session row locked (and, on the embedded database, its one connection taken) meanwhile.
    let release = () => undefined as void;
    let locked = () => undefined as void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const held = s.app.db.transaction(async (tx) => {
      await tx.execute(sql`select id from provision_sessions where id = ${session} for update`);
      locked();
      await new Promise<void>((r) => (release = r));
    });
    await isLocked;
    const applied = readyAndFile(batcher, d, session, files[0].device_path, 'downloading');
    expect(relayed.map((e) => [e.event, e.seq])).toEqual([
      ['provisioning_ready', 2],
      ['file_updated', 3],
    ]);
    // A stream opened now catches up with these after the stored ones.
    expect(batcher.unwritten(session).map((e) => e.seq)).toEqual([2, 3]);
    await new Promise((r) => setTimeout(r, 100));
    expect((await Promise.race([Promise.all(applied), 'waiting'])) === 'waiting').toBe(true);
    release();
    await held;
    await Promise.all(applied);
    expect(batcher.unwritten(session)).toEqual([]);
    const stored = await eventsAfter(s.app.db, session, 0);
    expect(stored.map((e) => [e.event, e.seq])).toEqual([
      ['provision_started', 1],
      ['provisioning_ready', 2],
      ['file_updated', 3],
    ]);
    expect(stored.at(-1)!.data).toMatchObject({ status: 'downloading', downloading_files: 1 });
  });

  it('writes what was applied before a change made in the database, and holds reports meanwhile', async () => {
    const d = await device();
    const { session, files } = await begin(d);
    const { batcher, relayed } = await soleBatcher(session, 60_000);
    const file = (n: number, status: string) =>
      batcher.add(d.name, {
        type: 'provision',
        session_id: session,
        n,
        phase: 'file',
        device_path: files[0].device_path,
        status: status as 'queued',
      });
    const first = [
      batcher.add(d.name, { type: 'provision', session_id: session, n: 1, phase: 'ready' }),
      file(2, 'queued'),
    ];
    let seenInside: number[] = [];
    let held: Promise<void> | undefined;
    await batcher.exclusive(session, async () => {
      // Written before this runs, though the batcher's own interval is a minute away.
      seenInside = (await eventsAfter(s.app.db, session, 0)).map((e) => e.seq);
      held = file(3, 'downloading');
      await new Promise((r) => setTimeout(r, 50));
      expect(relayed.map((e) => e.seq)).toEqual([2, 3]);
    });
    await Promise.all(first);
    expect(seenInside).toEqual([1, 2, 3]);
    // Applied once the change was done, read again from the database.
    await batcher.flush();
    await held;
    expect(relayed.map((e) => [e.event, e.seq])).toEqual([
      ['provisioning_ready', 2],
      ['file_updated', 3],
      ['file_updated', 4],
    ]);
    expect((await eventsAfter(s.app.db, session, 3)).map((e) => e.data)).toEqual([
      expect.objectContaining({ status: 'downloading', device_path: files[0].device_path }),
    ]);
  });
});

describe('reports applied under row locks (several instances: PostgreSQL)', () => {
  it('sends a flush’s events once numbered, before they are stored, then marks them stored', async () => {
    const d = await device();
    const { session, files } = await begin(d);
    const timeline: string[] = [];
    const batcher = createReportBatcher({
      db: s.app.db,
      relay: async (events) => void timeline.push(`relay ${events.map((e) => `${e.event}:${e.seq}`).join(' ')}`),
      stored: async (marks) => void timeline.push(`stored ${marks.map((m) => `${m.device}:${m.seq}`).join(' ')}`),
      onRefused: (_id, err) => {
        throw err;
      },
      intervalMs: 60_000,
    });
    const applied = readyAndFile(batcher, d, session, files[0].device_path, 'queued').map((p) =>
      p.then(() => void timeline.push('acknowledged')),
    );
    await batcher.flush();
    await Promise.all(applied);
    expect(timeline).toEqual([
      'relay provisioning_ready:2 file_updated:3',
      `stored ${d.name}:3`,
      'acknowledged',
      'acknowledged',
    ]);
    expect((await eventsAfter(s.app.db, session, 0)).map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('a stream that missed an event sent before it was stored gets it from the stored mark, once and in order', async () => {
    const d = await device();
    const { session } = await begin(d);
    const bus = createLocalBus();
    const streams = new EventStreams(s.app.db, bus, (err) => {
      throw err;
    });
    const written: string[] = [];
    const res = Object.assign(new EventEmitter(), {
      writableEnded: false,
      writeHead: () => res,
      write: (chunk: string) => void written.push(chunk),
      end: () => void (res.writableEnded = true),
    });
    const ids = () => written.flatMap((c) => parseEventId(/^id: (\S+)/.exec(c)?.[1])?.seq ?? []);
    streams.open(res as unknown as ServerResponse, d.name, session, 0);
    await eventually(async () => expect(ids()).toEqual([0, 1]));
    const event = (seq: number): ProvisionBusEvent => ({
      device: d.name,
      session_id: session,
      seq,
      event: 'provisioning_ready',
      data: { session_id: session, deviceId: d.name, status: 'in_progress', message: `event ${seq}` },
    });
    const store = (...seqs: number[]) =>
      Promise.all(
        seqs.map((seq) =>
          s.app.db.execute(sql`
            insert into provision_events (session_id, seq, event, data)
            values (${session}, ${seq}, 'provisioning_ready', ${JSON.stringify(event(seq).data)}::jsonb)`),
        ),
      );
    const mark = (seq: number): StoredMark => ({ device: d.name, session_id: session, seq });
    // Event 2 went out before this stream opened and was not stored when it caught up: its mark brings it.
    await store(2);
    await bus.publish('provision.stored', { marks: [mark(2)] });
    await eventually(async () => expect(ids()).toEqual([0, 1, 2]));
    // Event 4 arrives while 3 is not yet stored: not written out of order, nor before 3.
    await bus.publish('provision.events', { events: [event(4)] });
    await new Promise((r) => setTimeout(r, 100));
    expect(ids()).toEqual([0, 1, 2]);
    await store(3, 4);
    await bus.publish('provision.stored', { marks: [mark(4)] });
    await eventually(async () => expect(ids()).toEqual([0, 1, 2, 3, 4]));
    // Said again (a retried flush, a late mark): nothing written twice.
    await bus.publish('provision.events', { events: [event(3), event(4)] });
    await bus.publish('provision.stored', { marks: [mark(4)] });
    await bus.publish('provision.events', { events: [event(5)] });
    await eventually(async () => expect(ids()).toEqual([0, 1, 2, 3, 4, 5]));
    streams.closeAll();
    expect(res.writableEnded).toBe(true);
  });
});

describe('shutdown', () => {
  it('closes open event streams at once: close() does not wait for a session to end', async () => {
    const own = await startForUploads({ PROVISION_TIMEOUT_MS: '60000' });
    const entity = own.acme;
    const file = await upload(own.s, `/api/v1/tenant/${entity}/files`, own.tokens.admin, {
      fields: { level: 'entity', entity_id: entity, file_device_path: 'config/app.json' },
      filename: 'app.json',
      bytes: 64,
    });
    expect(file.status).toBe(201);
    const name = randomDeviceId();
    const d = await connectDevice(own.s, entity, await registerDevice(own.s, own.tokens.admin, entity, name));
    await eventually(async () => {
      const dev = await own.s.request('GET', `/api/v1/tenant/${entity}/device/${name}`, { token: own.tokens.admin });
      expect(dev.body.data.online).toBe(true);
    });
    const url = `/api/v1/tenant/${entity}/provision/${name}`;
    expect((await own.s.request('POST', url, { token: own.tokens.admin })).status).toBe(200);
    let connected = () => {};
    const following = new Promise<void>((resolve) => (connected = resolve));
    const watching = readEvents(own.s.url + url + '/events', own.tokens.admin, {
      onEvent: (e) => e.event === 'provision_started' && connected(),
    });
    await following;
    const started = Date.now();
    await own.s.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    // The stream ended with the server, before any final event.
    const { events, closedByServer } = await watching;
    expect(closedByServer).toBe(true);
    expect(events.map((e) => e.event)).toEqual(['connection', 'provision_started']);
    await d.close();
  });
});
