import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { parseEventId } from '@fleet/shared/provision';
import { describe, expect, it } from 'vitest';
import { EventStreams } from '../../src/domain/provision/event-streams.ts';
import { createReportBatcher } from '../../src/domain/provision/create-report-batcher.ts';
import type { ReportBatcher } from '../../src/domain/provision/report-batcher.ts';
import { eventsAfter } from '../../src/domain/provision/session-store.ts';
import { createLocalBus, type ProvisionBusEvent, type StoredMark } from '../../src/lib/bus.ts';
import { connectDevice, eventually, randomDeviceId, registerDevice, type TestDevice } from '../helpers/devices.ts';
import { readEvents } from '../helpers/sse.ts';
import { startForUploads, upload } from '../helpers/uploads.ts';
import { s, useProvisioningWorld, device, begin } from '../helpers/provisioning-world.ts';

/**
 * The report batcher's two modes against the real database, and shutdown with open event streams
 * (the rest of provisioning: provisioning.test.ts).
 */
useProvisioningWorld();

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
    // Answered once applied and relayed, not when written: held until the write, a report (and
    // its promise) outlived the young generation whenever writes fell behind (s25f).
    const turn = new Promise((r) => setImmediate(() => r('waiting')));
    expect(await Promise.race([Promise.all(applied).then(() => 'answered'), turn])).toBe('answered');
    expect(batcher.unwritten(session).map((e) => e.seq)).toEqual([2, 3]);
    release();
    await held;
    await batcher.settle(d.name);
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
    const { bus, streams } = ownStreams();
    const { res, ids } = fakeResponse();
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

  it('a stream resumed after the final event, seen before the session’s end was stored, closes at the stored mark', async () => {
    const d = await device();
    const { session } = await begin(d);
    const { bus, streams } = ownStreams();
    const { res, ids } = fakeResponse();
    // Event 2 ended the session on another instance; the client resumes after it here.
    streams.open(res as unknown as ServerResponse, d.name, session, 2);
    expect(ids()).toEqual([2]);
    await new Promise((r) => setTimeout(r, 100));
    expect(res.writableEnded).toBe(false);
    await s.app.db.execute(sql`
      insert into provision_events (session_id, seq, event, data)
      values (${session}, 2, 'provision_completed', '{}'::jsonb)`);
    await s.app.db.execute(sql`update provision_sessions set ended_at = now() where id = ${session}`);
    await bus.publish('provision.stored', { marks: [{ device: d.name, session_id: session, seq: 2 }] });
    await eventually(async () => expect(res.writableEnded).toBe(true));
    expect(ids()).toEqual([2]);
    expect(streams.size).toBe(0);
  });
});

/** Event streams of their own on a bus of their own, failing the test on an error. */
function ownStreams() {
  const bus = createLocalBus();
  const streams = new EventStreams(s.app.db, bus, (err) => {
    throw err;
  });
  return { bus, streams };
}

/** A response that keeps what is written to it, and the sequence numbers of the events' ids. */
function fakeResponse() {
  const written: string[] = [];
  const res = Object.assign(new EventEmitter(), {
    writableEnded: false,
    writeHead: () => res,
    write: (chunk: string) => void written.push(chunk),
    end: () => void (res.writableEnded = true),
  });
  const ids = () => written.flatMap((c) => parseEventId(/^id: (\S+)/.exec(c)?.[1])?.seq ?? []);
  return { res, ids };
}

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
