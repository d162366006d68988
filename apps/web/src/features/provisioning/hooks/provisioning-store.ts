import { z } from 'zod';
import { FINAL_EVENTS, type ProvisionAnswer, type ProvisionEventName } from '@fleet/shared/provision';
import { ApiError } from '@/lib/api/api-error.ts';
import type { Notifier } from '@/lib/api/notifier.ts';
import type { EventStream, EventStreamOptions } from '@/lib/sse.ts';
import {
  PROVISION_NOTICES,
  applyEvent,
  emptyView,
  isActive,
  streamLost,
  type ProvisionView,
} from '../utils/provision-state.ts';

/** The provisioning calls of core §7 for one device of an entity. */
export interface ProvisioningApi {
  start(entity: string, device: string): Promise<ProvisionAnswer>;
  cancel(entity: string, device: string): Promise<ProvisionAnswer>;
  get(entity: string, device: string): Promise<ProvisionAnswer>;
}

/** Opens a device's session event stream (with the session's token and its renewal). */
export type OpenProvisionStream = (
  entity: string,
  device: string,
  handlers: Pick<EventStreamOptions, 'onEvent' | 'onFailure' | 'isFinal'>,
) => EventStream;

export interface ProvisioningStoreDeps {
  api: ProvisioningApi;
  openStream: OpenProvisionStream;
  notices: Notifier;
  /** Where running sessions are remembered across reloads; null without storage. */
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/** One followed session: the device's entity and what the modal shows. */
export interface FollowedSession {
  entity: string;
  view: ProvisionView;
}

/** What subscribers select from; replaced (never changed in place) on every change. */
export interface ProvisioningState {
  sessions: ReadonlyMap<string, FollowedSession>;
  /** The device whose modal is open, if any. */
  modal: string | null;
}

/** Where the devices being followed are remembered, so a reload finds their sessions again. */
export const STORAGE_KEY = 'fleet.provisioning';
const RememberedSchema = z.array(z.object({ entity: z.string().min(1), device: z.string().min(1) }));

/** What a start that failed says when the API client has not already said it. */
export const START_FAILED = 'Provisioning not started';

/**
 * The provisioning sessions this tab follows (core §4), one per device: each has an event stream
 * while it runs, and its view for the modal. Outside React so streams outlive screens; built with
 * its calls, stream opener, notices and storage passed in.
 */
export function createProvisioningStore({ api, openStream, notices, storage }: ProvisioningStoreDeps) {
  let state: ProvisioningState = { sessions: new Map(), modal: null };
  /** Each followed device's stream; a replaced entry's callbacks are ignored. */
  const streams = new Map<string, { stream?: EventStream }>();
  /** Devices whose outcome is announced (a session seen running); a replay of an ended one stays quiet. */
  const announced = new Set<string>();
  const listeners = new Set<() => void>();

  const set = (patch: Partial<ProvisioningState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };
  const put = (device: string, session: FollowedSession | null) => {
    const sessions = new Map(state.sessions);
    if (session) sessions.set(device, session);
    else sessions.delete(device);
    set({ sessions });
  };

  const remembered = (): Array<{ entity: string; device: string }> => {
    try {
      const parsed = RememberedSchema.safeParse(JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]'));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  };
  /** Remembers the sessions still running. */
  const remember = () => {
    const running = [...state.sessions].filter(([, s]) => isActive(s.view));
    try {
      storage?.setItem(STORAGE_KEY, JSON.stringify(running.map(([device, s]) => ({ entity: s.entity, device }))));
    } catch {
      // Storage refused (private mode): a reload then finds sessions from the device list only.
    }
  };

  const forget = (device: string) => {
    streams.get(device)?.stream?.close();
    streams.delete(device);
    announced.delete(device);
    put(device, null);
    if (state.modal === device) set({ modal: null });
    remember();
  };

  const announce = (view: ProvisionView) => {
    if (view.outcome === 'success') notices.success(PROVISION_NOTICES.complete);
    else if (view.outcome === 'partial') notices.warning(PROVISION_NOTICES.completeWithErrors);
    else notices.error(PROVISION_NOTICES.failed, PROVISION_NOTICES.failedText(view.deviceId));
  };

  const follow = (entity: string, device: string, sessionId: string, loud: boolean) => {
    streams.get(device)?.stream?.close();
    const entry: { stream?: EventStream } = {};
    streams.set(device, entry);
    if (loud) announced.add(device);
    else announced.delete(device);
    const session = { entity, view: { ...emptyView(device), session_id: sessionId } };
    put(device, session);
    remember();
    // Callbacks of a stream replaced since (a new session on the device) are ignored.
    const current = () => streams.get(device) === entry;
    const update = (view: ProvisionView) => {
      put(device, { entity, view });
      if (!isActive(view)) remember();
    };
    entry.stream = openStream(entity, device, {
      isFinal: (e) => FINAL_EVENTS.includes(e.event as ProvisionEventName),
      onEvent: (e) => {
        const before = state.sessions.get(device)?.view;
        if (!current() || !before) return;
        let data: Record<string, unknown>;
        try {
          data = JSON.parse(e.data) as Record<string, unknown>;
        } catch {
          return;
        }
        const view = applyEvent(before, e.event, data);
        update(view);
        if (view.outcome && !before.outcome && announced.has(device)) announce(view);
      },
      onFailure: () => {
        const before = state.sessions.get(device)?.view;
        if (!current() || !before || !isActive(before)) return;
        if (announced.has(device)) notices.error(PROVISION_NOTICES.failed, PROVISION_NOTICES.failedText(device));
        update(streamLost(before));
        remember();
      },
    });
  };

  const openModal = (device: string | null) => set({ modal: device });

  /** Starts provisioning and follows it; answers false when it did not start (a notice says why). */
  const start = async (entity: string, device: string, showModal = true): Promise<boolean> => {
    try {
      const answer = await api.start(entity, device);
      follow(entity, device, answer.data.session_id, true);
      if (showModal) openModal(device);
      return true;
    } catch (err) {
      // The API client has shown a refusal it noticed; anything else is said here.
      if (!(err instanceof ApiError && err.notified))
        notices.error(START_FAILED, err instanceof ApiError ? err.userMessage : `Device ${device}`);
      return false;
    }
  };

  return {
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: (): ProvisioningState => state,
    openModal,
    start,
    /** Starts sessions one after another; the modal opens when there is only one. */
    async startMany(calls: ReadonlyArray<{ entity: string; devices: readonly string[] }>): Promise<void> {
      const one = calls.reduce((n, call) => n + call.devices.length, 0) === 1;
      for (const call of calls) for (const device of call.devices) await start(call.entity, device, one);
    },
    /** Cancel: the server ends the session; the tracking and its stream go (core §4). */
    async cancel(entity: string, device: string): Promise<void> {
      try {
        await api.cancel(entity, device);
        forget(device);
        notices.success(PROVISION_NOTICES.cancelled);
      } catch (err) {
        notices.error(PROVISION_NOTICES.cancelFailed, err instanceof ApiError ? err.userMessage : undefined);
      }
    },
    /** Shows a device's session: the one followed, or the newest the server has (after a reload). */
    async show(entity: string, device: string): Promise<void> {
      openModal(device);
      if (state.sessions.has(device)) return;
      try {
        const answer = await api.get(entity, device);
        follow(entity, device, answer.data.session_id, answer.data.ended_at === null);
      } catch {
        put(device, { entity, view: streamLost(emptyView(device)) });
      }
    },
    /** Picks up again the sessions followed before a reload. */
    resume(): void {
      for (const { entity, device } of remembered()) {
        if (state.sessions.has(device)) continue;
        api.get(entity, device).then(
          (answer) => {
            if (answer.data.ended_at === null) follow(entity, device, answer.data.session_id, true);
            else remember();
          },
          () => remember(),
        );
      }
    },
    /** Closing the modal of an ended session lets it go. */
    closeModal(): void {
      const device = state.modal;
      set({ modal: null });
      if (device && !isActive(state.sessions.get(device)?.view)) forget(device);
    },
  };
}

export type ProvisioningStore = ReturnType<typeof createProvisioningStore>;
