import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  countsAsProvisioning,
  emptyView,
  isActive,
  statusText,
  streamLost,
  type ProvisionView,
} from './provision-state.ts';

const S = '11111111-1111-4111-8111-111111111111';
const counters = (completed: number, failed: number, downloading = 0, total = 3) => ({
  total_files: total,
  completed_files: completed,
  failed_files: failed,
  downloading_files: downloading,
});
const files = ['a', 'b', 'c'].map((n) => ({ filename: `${n}.bin`, device_path: `d/${n}`, status: 'pending' as const }));

function started(): ProvisionView {
  return applyEvent(emptyView('dev1'), 'provision_started', {
    session_id: S,
    files,
    total: 3,
    ...counters(0, 0),
    message: 'started',
  });
}

describe('applyEvent (core §4)', () => {
  it('tracks provision_started, then in_progress on file updates, with counters and the log', () => {
    let v = started();
    expect(v).toMatchObject({ status: 'provision_started', session_id: S, total_files: 3, message: ['started'] });
    v = applyEvent(v, 'file_updated', {
      session_id: S,
      device_path: 'd/a',
      status: 'downloading',
      ...counters(0, 0, 1),
    });
    expect(v.status).toBe('in_progress');
    expect(v.files[0]!.status).toBe('downloading');
    expect(v.downloading_files).toBe(1);
    expect(statusText(v)).toBe('In Progress');
    expect(isActive(v)).toBe(true);
    v = applyEvent(v, 'provision_finalizing', { session_id: S, status: 'provision_finalizing' });
    expect(v.status).toBe('provision_finalizing');
  });

  it('decides success, all failed and partial on provision_completed', () => {
    const ok = applyEvent(started(), 'provision_completed', { session_id: S, ...counters(3, 0) });
    expect(ok).toMatchObject({ status: 'provision_completed', outcome: 'success', errorMessage: null });
    expect(statusText(ok)).toBe('Success');
    const none = applyEvent(started(), 'provision_completed', { session_id: S, ...counters(0, 3) });
    expect(none).toMatchObject({ status: 'provision_failed', errorMessage: 'All files failed to provision' });
    expect(statusText(none)).toBe('Failed');
    const some = applyEvent(started(), 'provision_completed', { session_id: S, ...counters(2, 1) });
    expect(some).toMatchObject({
      status: 'provision_failed',
      errorMessage: 'Provisioning Partially completed with errors',
      outcome: 'partial',
    });
    expect(statusText(some)).toBe('Partially Succeeded');
  });

  it('takes the outcome the server decided on provision_completed over its own count', () => {
    // One of three files counted as failed here, the others not yet: the server's word is all failed.
    const v = applyEvent(started(), 'provision_completed', { session_id: S, ...counters(0, 1), outcome: 'failed' });
    expect(v).toMatchObject({
      status: 'provision_failed',
      outcome: 'failed',
      errorMessage: 'All files failed to provision',
    });
  });

  it('fails pending and downloading files on provision_failed, and fails on timeout or a lost stream', () => {
    let v = applyEvent(started(), 'file_updated', {
      session_id: S,
      device_path: 'd/a',
      status: 'completed',
      ...counters(1, 0),
    });
    v = applyEvent(v, 'file_updated', {
      session_id: S,
      device_path: 'd/b',
      status: 'downloading',
      ...counters(1, 0, 1),
    });
    const failed = applyEvent(v, 'provision_failed', { session_id: S, error: 'storage full' });
    expect(failed.files.map((f) => f.status)).toEqual(['completed', 'failed', 'failed']);
    expect(failed).toMatchObject({ status: 'provision_failed', errorMessage: 'storage full' });
    expect(statusText(failed)).toBe('Failed');
    expect(applyEvent(v, 'timeout', { session_id: S }).errorMessage).toBe('Connection to event stream timed out');
    expect(streamLost(v).errorMessage).toBe('Connection to event stream lost');
  });

  it('resets the data when a new session id arrives', () => {
    const v = applyEvent(started(), 'file_updated', {
      session_id: S,
      device_path: 'd/a',
      status: 'completed',
      ...counters(1, 0),
    });
    const next = applyEvent(v, 'provision_started', {
      session_id: '22222222-2222-4222-8222-222222222222',
      files,
      total: 3,
      ...counters(0, 0),
      message: 'again',
    });
    expect(next.message).toEqual(['again']);
    expect(next.files.every((f) => f.status === 'pending')).toBe(true);
  });
});

describe('countsAsProvisioning (core §4)', () => {
  const device = { state: { current: 'WAITING' }, current_provision: null };
  it('holds for a tracked session started or in progress, state PROVISIONING or DFU, or a current provision', () => {
    expect(countsAsProvisioning(device, undefined)).toBe(false);
    expect(countsAsProvisioning(device, started())).toBe(true);
    expect(countsAsProvisioning({ ...device, state: { current: 'PROVISIONING' } }, undefined)).toBe(true);
    expect(countsAsProvisioning({ ...device, state: { current: 'DFU' } }, undefined)).toBe(true);
    expect(countsAsProvisioning({ ...device, current_provision: S }, undefined)).toBe(true);
  });
});
