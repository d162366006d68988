import { describe, expect, it } from 'vitest';
import type { ProvisionDeviceEvent } from '@fleet/shared/provision';
import { applyReport, endSession, startSession, type SessionState, type Step } from './session-machine.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const FILES = [
  { filename: 'a.bin', device_path: '/a' },
  { filename: 'b.bin', device_path: '/b' },
];

/** A report without what every report of the session says. */
type Report = ProvisionDeviceEvent extends infer E
  ? E extends unknown
    ? Omit<E, 'type' | 'session_id'>
    : never
  : never;
const r = (x: Report) => ({ type: 'provision', session_id: ID, ...x }) as ProvisionDeviceEvent;

/** A session after its start and these reports, applied in turn. */
function after(...reports: Report[]): SessionState {
  let s = startSession({ id: ID, device: 'dev-1', by: 'alice' }, FILES).state;
  for (const x of reports) s = applyReport(s, r(x)).state;
  return s;
}

/** What a step says, in short: the events with their log lines, the files changed, the new status. */
const brief = (step: Step) => ({
  status: step.state.status,
  events: step.events.map((e) => `${e.seq} ${e.event}: ${(e.data as { message: string }).message}`),
  changed: step.changed.map((f) => `${f.device_path} ${f.status}${f.error ? ` (${f.error})` : ''}`),
  counters: [step.state.completed_files, step.state.failed_files, step.state.downloading_files],
  heard: step.heard,
  ended: step.ended,
  download: step.download,
  early: step.early,
});

const nothing = { events: [], changed: [], ended: false, early: false };

describe('the provisioning state machine', () => {
  it('starts a session: every file pending, event 1 says who and how many', () => {
    const step = startSession({ id: ID, device: 'dev-1', by: 'alice' }, FILES);
    expect(brief(step)).toMatchObject({
      status: 'provision_started',
      events: ['1 provision_started: Provisioning started by alice: 2 files'],
      counters: [0, 0, 0],
    });
    expect(step.state).toMatchObject({ total_files: 2, last_seq: 1, device_seq: 0, ended: false });
    expect(step.events[0]!.data).toMatchObject({ session_id: ID, deviceId: 'dev-1', total: 2, total_files: 2 });
  });

  // Each case: the reports before, the one applied, and what the step decides.
  it.each<[string, Report[], Report, Partial<ReturnType<typeof brief>>]>([
    [
      'ready: in progress',
      [],
      { phase: 'ready', n: 1 },
      { status: 'in_progress', events: ['2 provisioning_ready: The device is ready'], heard: true },
    ],
    ['ready said again: heard, nothing new', [{ phase: 'ready' }], { phase: 'ready' }, { ...nothing, heard: true }],
    [
      'a file queued',
      [{ phase: 'ready', n: 1 }],
      { phase: 'file', n: 2, device_path: '/a', status: 'queued' },
      { events: ['3 file_updated: a.bin: queued'], changed: ['/a queued'], download: null, counters: [0, 0, 0] },
    ],
    [
      'a file downloading: the download line counts it',
      [{ phase: 'ready', n: 1 }],
      { phase: 'file', n: 2, device_path: '/a', status: 'downloading' },
      { changed: ['/a downloading'], download: 'a.bin (1/2)', counters: [0, 0, 1] },
    ],
    [
      'a file completed',
      [{ phase: 'file', device_path: '/a', status: 'downloading' }],
      { phase: 'file', device_path: '/a', status: 'completed' },
      { changed: ['/a completed'], download: null, counters: [1, 0, 0] },
    ],
    [
      'a file failed, with its error',
      [],
      { phase: 'file', device_path: '/b', status: 'failed', error: 'disk full' },
      {
        events: ['2 file_updated: b.bin: failed (disk full)'],
        changed: ['/b failed (disk full)'],
        counters: [0, 1, 0],
      },
    ],
    [
      'a file moved back: nothing (only forward)',
      [{ phase: 'file', device_path: '/a', status: 'downloading' }],
      { phase: 'file', device_path: '/a', status: 'queued' },
      { ...nothing, heard: true },
    ],
    ['a file the session has not', [], { phase: 'file', device_path: '/zz', status: 'queued' }, nothing],
    [
      'finalizing',
      [{ phase: 'ready' }],
      { phase: 'finalizing' },
      { status: 'provision_finalizing', events: ['3 provision_finalizing: Finalizing'] },
    ],
    [
      'completed, every file: success',
      [
        { phase: 'file', device_path: '/a', status: 'completed' },
        { phase: 'file', device_path: '/b', status: 'completed' },
      ],
      { phase: 'completed' },
      {
        status: 'provision_completed',
        events: ['4 provision_completed: Provisioning complete: 2 of 2 files'],
        ended: true,
        download: null,
      },
    ],
    [
      'completed, its results holding over earlier reports; a file it does not name fails',
      [{ phase: 'file', device_path: '/a', status: 'downloading' }],
      { phase: 'completed', results: [{ device_path: '/a', status: 'completed' }] },
      {
        status: 'provision_failed',
        events: ['3 provision_completed: Provisioning Partially completed with errors: 1 of 2 files'],
        changed: ['/a completed', '/b failed (The device finished without it)'],
        counters: [1, 1, 0],
        ended: true,
      },
    ],
    [
      'completed, every file failed',
      [],
      { phase: 'completed', results: [{ device_path: '/a', status: 'failed', error: 'bad hash' }] },
      {
        status: 'provision_failed',
        events: ['2 provision_completed: All files failed to provision: 0 of 2 files'],
        changed: ['/a failed (bad hash)', '/b failed (The device finished without it)'],
        counters: [0, 2, 0],
      },
    ],
    [
      'failed: unfinished files fail with its error, finished ones stay',
      [{ phase: 'file', device_path: '/a', status: 'completed' }],
      { phase: 'failed', error: 'no space' },
      {
        status: 'provision_failed',
        events: ['3 provision_failed: Provisioning failed: no space'],
        changed: ['/b failed (no space)'],
        counters: [1, 1, 0],
        heard: false,
        ended: true,
      },
    ],
    [
      'failed without an error',
      [],
      { phase: 'failed' },
      { events: ['2 provision_failed: Provisioning failed: The device reported a failure'] },
    ],
    [
      'a repeated report (n already applied): heard, nothing else',
      [
        { phase: 'ready', n: 1 },
        { phase: 'finalizing', n: 2 },
      ],
      { phase: 'finalizing', n: 2 },
      { ...nothing, status: 'provision_finalizing', heard: true },
    ],
    [
      'a report ahead of one missing: early, nothing applied',
      [{ phase: 'ready', n: 1 }],
      { phase: 'file', n: 3, device_path: '/a', status: 'downloading' },
      { ...nothing, heard: false, early: true, counters: [0, 0, 0] },
    ],
    [
      'a late report after the end: nothing',
      [{ phase: 'failed', n: 1 }],
      { phase: 'file', n: 2, device_path: '/a', status: 'completed' },
      { ...nothing, status: 'provision_failed', heard: false, counters: [0, 2, 0] },
    ],
  ])('%s', (_name, before, report, expected) => {
    const state = after(...before);
    const step = applyReport(state, r(report));
    expect(brief(step)).toMatchObject(expected);
    // The state it was given is left as it was.
    expect(state).toEqual(after(...before));
  });

  it('applies a report ahead of one missing when told not to wait, and numbers on from it', () => {
    const state = after({ phase: 'ready', n: 1 });
    const step = applyReport(state, r({ phase: 'file', n: 3, device_path: '/a', status: 'queued' }), false);
    expect(brief(step)).toMatchObject({ early: false, changed: ['/a queued'] });
    expect(step.state.device_seq).toBe(3);
    // The one that was missing arrives after: already passed, so only heard.
    const late = applyReport(step.state, r({ phase: 'ready', n: 2 }));
    expect(brief(late)).toMatchObject({ ...nothing, heard: true });
  });

  it('out of order reports applied in the device order reach the same end as in order', () => {
    const reports: Report[] = [
      { phase: 'ready', n: 1 },
      { phase: 'file', n: 2, device_path: '/a', status: 'downloading' },
      { phase: 'file', n: 3, device_path: '/a', status: 'completed' },
    ];
    let s = after();
    const early = applyReport(s, r(reports[2]!));
    expect(early.early).toBe(true);
    for (const x of [reports[0]!, reports[1]!, reports[2]!]) s = applyReport(s, r(x)).state;
    expect(s).toEqual(after(...reports));
    expect(s).toMatchObject({ completed_files: 1, downloading_files: 0, last_seq: 4, device_seq: 3 });
  });

  it.each<[string, 'cancelled' | 'timeout', string, string]>([
    [
      'cancel',
      'cancelled',
      'Provisioning cancelled by bob',
      '4 provision_failed: Provisioning failed: Provisioning cancelled by bob',
    ],
    [
      'timeout',
      'timeout',
      'No word from the device for 120 s',
      '4 timeout: Timed out: No word from the device for 120 s',
    ],
  ])('%s mid-session: unfinished files fail, the device is released, one final event', (_name, reason, error, line) => {
    const state = after({ phase: 'ready', n: 1 }, { phase: 'file', n: 2, device_path: '/a', status: 'downloading' });
    const step = endSession(state, reason, error);
    expect(brief(step)).toMatchObject({
      status: reason,
      events: [line],
      changed: [`/a failed (${error})`, `/b failed (${error})`],
      counters: [0, 2, 0],
      ended: true,
      download: null,
    });
    expect(step.state.error).toBe(error);
    expect(step.events[0]!.data).toEqual({
      session_id: ID,
      deviceId: 'dev-1',
      total_files: 2,
      completed_files: 0,
      failed_files: 2,
      downloading_files: 0,
      status: reason,
      error,
      message: line.replace(/^4 \w+: /, ''),
      ...(reason === 'cancelled' ? { cancelled: true } : {}),
    });
    // Ending it again, or a report after it, changes nothing.
    expect(brief(endSession(step.state, 'timeout', 'again'))).toMatchObject(nothing);
    expect(brief(applyReport(step.state, r({ phase: 'completed', n: 3 })))).toMatchObject(nothing);
  });

  it('a file that failed with its own error keeps it when the session ends', () => {
    const state = after({ phase: 'file', device_path: '/a', status: 'failed', error: 'bad hash' });
    const step = endSession(state, 'cancelled', 'Provisioning cancelled by bob');
    expect(step.changed.map((f) => [f.device_path, f.error])).toEqual([['/b', 'Provisioning cancelled by bob']]);
  });
});
