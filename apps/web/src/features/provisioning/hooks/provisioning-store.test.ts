import type { ProvisionAnswer } from '@fleet/shared/provision';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/api-error.ts';
import type { EventStreamOptions, StreamEvent } from '@/lib/sse.ts';
import { PROVISION_NOTICES } from '../utils/provision-state.ts';
import { START_FAILED, STORAGE_KEY, createProvisioningStore, type ProvisioningApi } from './provisioning-store.ts';

const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const answer = (session_id: string, ended_at: string | null = null) =>
  ({ data: { session_id, ended_at } }) as ProvisionAnswer;
type Handlers = Pick<EventStreamOptions, 'onEvent' | 'onFailure' | 'isFinal'>;

/** A store on fakes: calls answer as told, streams are recorded, notices and storage kept in arrays. */
function setup(options: { api?: Partial<ProvisioningApi>; stored?: string | null } = {}) {
  const items = new Map<string, string>();
  if (options.stored != null) items.set(STORAGE_KEY, options.stored);
  const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => items.set(k, v) };
  const api: ProvisioningApi = {
    start: vi.fn(async () => answer(S1)),
    cancel: vi.fn(async () => answer(S1, '2026-11-25T10:00:00Z')),
    get: vi.fn(async () => answer(S1)),
    ...options.api,
  };
  const streams: Array<{ entity: string; device: string; handlers: Handlers; close: ReturnType<typeof vi.fn> }> = [];
  const notices = { error: vi.fn(), success: vi.fn(), warning: vi.fn() };
  const store = createProvisioningStore({
    api,
    notices,
    storage,
    openStream: (entity, device, handlers) => {
      const close = vi.fn();
      streams.push({ entity, device, handlers, close });
      return { close, lastEventId: () => undefined };
    },
  });
  const send = (i: number, event: string, data: Record<string, unknown>) =>
    streams[i]!.handlers.onEvent({ id: '1', event, data: JSON.stringify(data) } satisfies StreamEvent);
  const remembered = () => JSON.parse(items.get(STORAGE_KEY) ?? 'null') as unknown;
  return { store, api, streams, notices, send, remembered };
}

const completed = { session_id: S1, total_files: 1, completed_files: 1, failed_files: 0, outcome: 'success' };

describe('provisioning store (core §4)', () => {
  it('starts a session, follows its stream, opens the modal and remembers it while it runs', async () => {
    const { store, api, streams, remembered } = setup();
    const seen = vi.fn();
    store.subscribe(seen);
    expect(await store.start('acme', 'dev1')).toBe(true);
    expect(api.start).toHaveBeenCalledWith('acme', 'dev1');
    expect(streams.map((s) => [s.entity, s.device])).toEqual([['acme', 'dev1']]);
    expect(store.getState().modal).toBe('dev1');
    expect(store.getState().sessions.get('dev1')?.view.session_id).toBe(S1);
    expect(remembered()).toEqual([{ entity: 'acme', device: 'dev1' }]);
    expect(seen).toHaveBeenCalled();
  });

  it('shows a start failure the API client did not show, and none twice', async () => {
    const silent = setup({ api: { start: vi.fn(async () => Promise.reject(new TypeError('bad answer'))) } });
    expect(await silent.store.start('acme', 'dev1')).toBe(false);
    expect(silent.notices.error).toHaveBeenCalledWith(START_FAILED, 'Device dev1');
    expect(silent.store.getState().sessions.size).toBe(0);

    const refused = new ApiError({ status: 409, userMessage: 'Device busy', notified: true });
    const shown = setup({ api: { start: vi.fn(async () => Promise.reject(refused)) } });
    expect(await shown.store.start('acme', 'dev1')).toBe(false);
    expect(shown.notices.error).not.toHaveBeenCalled();
  });

  it('announces the outcome of a session it saw running, then forgets it from storage', async () => {
    const { store, send, notices, remembered } = setup();
    await store.start('acme', 'dev1');
    send(0, 'provision_completed', completed);
    expect(store.getState().sessions.get('dev1')?.view.outcome).toBe('success');
    expect(notices.success).toHaveBeenCalledWith(PROVISION_NOTICES.complete);
    expect(remembered()).toEqual([]);
  });

  it('marks a lost stream and says so, but ignores a stream replaced by a newer session', async () => {
    const { store, streams, send, notices } = setup();
    await store.start('acme', 'dev1');
    await store.start('acme', 'dev1');
    expect(streams[0]!.close).toHaveBeenCalled();
    send(0, 'provision_completed', completed);
    streams[0]!.handlers.onFailure('lost');
    expect(store.getState().sessions.get('dev1')?.view.outcome).toBeNull();
    expect(notices.error).not.toHaveBeenCalled();
    streams[1]!.handlers.onFailure('lost');
    expect(notices.error).toHaveBeenCalledWith(PROVISION_NOTICES.failed, PROVISION_NOTICES.failedText('dev1'));
    expect(store.getState().sessions.get('dev1')?.view.errorMessage).toBeTruthy();
  });

  it('changes only the changed session: a selector of another device keeps its value', async () => {
    const { store, send } = setup({
      api: { start: vi.fn(async (_e: string, d: string) => answer(d === 'a' ? S1 : S2)) },
    });
    await store.start('acme', 'a', false);
    await store.start('acme', 'b', false);
    const a = store.getState().sessions.get('a')?.view;
    const before = store.getState();
    send(1, 'provisioning_ready', { session_id: S2 });
    expect(store.getState()).not.toBe(before);
    expect(store.getState().sessions.get('a')?.view).toBe(a);
    expect(store.getState().sessions.get('b')?.view.status).toBe('in_progress');
  });

  it('resumes only well-formed remembered sessions, and only those still running', async () => {
    const bad = setup({ stored: JSON.stringify([{ entity: 'acme' }, 'dev1']) });
    bad.store.resume();
    expect(bad.api.get).not.toHaveBeenCalled();

    const get = vi.fn(async (_e: string, d: string) =>
      d === 'live' ? answer(S1) : answer(S2, '2026-11-25T10:00:00Z'),
    );
    const good = setup({
      api: { get },
      stored: JSON.stringify([
        { entity: 'acme', device: 'live' },
        { entity: 'acme', device: 'over' },
      ]),
    });
    good.store.resume();
    await vi.waitFor(() => expect(good.remembered()).toEqual([{ entity: 'acme', device: 'live' }]));
    expect(good.streams.map((s) => s.device)).toEqual(['live']);
  });

  it('cancels: the session and its stream go; a failed cancel says so', async () => {
    const { store, streams, notices } = setup();
    await store.start('acme', 'dev1');
    await store.cancel('acme', 'dev1');
    expect(streams[0]!.close).toHaveBeenCalled();
    expect(store.getState()).toMatchObject({ modal: null });
    expect(store.getState().sessions.size).toBe(0);
    expect(notices.success).toHaveBeenCalledWith(PROVISION_NOTICES.cancelled);

    const failing = setup({
      api: { cancel: vi.fn(async () => Promise.reject(new ApiError({ status: 500, userMessage: 'x' }))) },
    });
    await failing.store.start('acme', 'dev1');
    await failing.store.cancel('acme', 'dev1');
    expect(failing.notices.error).toHaveBeenCalledWith(PROVISION_NOTICES.cancelFailed, 'x');
    expect(failing.store.getState().sessions.size).toBe(1);
  });

  it('closing the modal of an ended session lets it go; of a running one keeps it', async () => {
    const { store, send } = setup();
    await store.start('acme', 'dev1');
    store.closeModal();
    expect(store.getState().sessions.has('dev1')).toBe(true);
    store.openModal('dev1');
    send(0, 'provision_completed', completed);
    store.closeModal();
    expect(store.getState().sessions.has('dev1')).toBe(false);
  });

  it('starts many one after another, the modal only for a single device', async () => {
    const { store, api } = setup();
    await store.startMany([{ entity: 'acme', devices: ['a', 'b'] }]);
    expect(vi.mocked(api.start).mock.calls).toEqual([
      ['acme', 'a'],
      ['acme', 'b'],
    ]);
    expect(store.getState().modal).toBeNull();
    await store.startMany([{ entity: 'acme', devices: ['c'] }]);
    expect(store.getState().modal).toBe('c');
  });
});
