import { FINAL_EVENTS, type ProvisionEventName } from '@fleet/shared/provision';
import { ApiError } from '@/lib/api/api-error.ts';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify.ts';
import { refresher, session } from '@/lib/session/session.ts';
import { openEventStream, type EventStream } from '@/lib/sse.ts';
import { cancelProvisioning, getProvisioning, provisionPath, startProvisioning } from '../api/provision.ts';
import {
  PROVISION_NOTICES,
  applyEvent,
  emptyView,
  isActive,
  streamLost,
  type ProvisionView,
} from '../utils/provision-state.ts';

interface Tracked {
  entity: string;
  view: ProvisionView;
  stream: EventStream | null;
  /** Announce the outcome (a session seen running); a replay of an ended one stays quiet. */
  announce: boolean;
}

/** Where the devices being followed are remembered, so a reload finds their sessions again. */
const STORAGE_KEY = 'fleet.provisioning';

/**
 * The provisioning sessions this tab follows (core §4), one per device: each has an event
 * stream while it runs, and its view for the modal. Outside React so streams outlive screens.
 */
class ProvisioningStore {
  private readonly tracked = new Map<string, Tracked>();
  private readonly listeners = new Set<() => void>();
  private modal: string | null = null;
  private version = 0;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  view(device: string): ProvisionView | undefined {
    return this.tracked.get(device)?.view;
  }

  /** The entity of a followed device. */
  entityOf(device: string): string | undefined {
    return this.tracked.get(device)?.entity;
  }

  /** The device whose modal is open, if any. */
  modalDevice(): string | null {
    return this.modal;
  }

  openModal(device: string | null): void {
    this.modal = device;
    this.changed();
  }

  /** Starts provisioning and follows it; answers false when the server refused (its notice shown). */
  async start(entity: string, device: string, showModal = true): Promise<boolean> {
    try {
      const answer = await startProvisioning(entity, device);
      this.follow(entity, device, answer.data.session_id, true);
      if (showModal) this.openModal(device);
      return true;
    } catch (err) {
      console.warn(`provisioning ${device} not started:`, err);
      return false;
    }
  }

  /** Cancel: the server ends the session; the tracking and its stream go (core §4). */
  async cancel(entity: string, device: string): Promise<void> {
    try {
      await cancelProvisioning(entity, device);
      this.forget(device);
      notifySuccess(PROVISION_NOTICES.cancelled);
    } catch (err) {
      const detail = err instanceof ApiError ? err.userMessage : undefined;
      notifyError(PROVISION_NOTICES.cancelFailed, detail);
    }
  }

  /** Shows a device's session: the one followed, or the newest the server has (after a reload). */
  async show(entity: string, device: string): Promise<void> {
    this.openModal(device);
    if (this.tracked.has(device)) return;
    try {
      const answer = await getProvisioning(entity, device);
      this.follow(entity, device, answer.data.session_id, answer.data.ended_at === null);
    } catch {
      this.tracked.set(device, { entity, view: streamLost(emptyView(device)), stream: null, announce: false });
      this.changed();
    }
  }

  /** Picks up again the sessions followed before a reload. */
  resume(): void {
    for (const { entity, device } of this.remembered()) {
      if (this.tracked.has(device)) continue;
      getProvisioning(entity, device).then(
        (answer) => {
          if (answer.data.ended_at === null) this.follow(entity, device, answer.data.session_id, true);
          else this.remember();
        },
        () => this.remember(),
      );
    }
  }

  /** Closing the modal of an ended session lets it go. */
  closeModal(): void {
    const device = this.modal;
    this.modal = null;
    if (device && !isActive(this.tracked.get(device)?.view)) this.forget(device);
    this.changed();
  }

  private follow(entity: string, device: string, sessionId: string, announce: boolean): void {
    this.tracked.get(device)?.stream?.close();
    const entry: Tracked = { entity, view: { ...emptyView(device), session_id: sessionId }, stream: null, announce };
    this.tracked.set(device, entry);
    this.remember();
    entry.stream = openEventStream({
      url: `/api/v1/${provisionPath(entity, device, '/events')}`,
      token: () => session.getSnapshot().accessToken,
      renew: () => refresher.refresh().then(() => session.getSnapshot().status === 'signed-in'),
      isFinal: (e) => FINAL_EVENTS.includes(e.event as ProvisionEventName),
      onEvent: (e) => {
        if (this.tracked.get(device) !== entry) return;
        let data: Record<string, unknown>;
        try {
          data = JSON.parse(e.data) as Record<string, unknown>;
        } catch {
          return;
        }
        const before = entry.view;
        entry.view = applyEvent(before, e.event, data);
        if (entry.view.outcome && !before.outcome) this.announce(entry);
        if (!isActive(entry.view)) this.remember();
        this.changed();
      },
      onFailure: () => {
        if (this.tracked.get(device) !== entry || !isActive(entry.view)) return;
        entry.view = streamLost(entry.view);
        if (entry.announce) notifyError(PROVISION_NOTICES.failed, PROVISION_NOTICES.failedText(device));
        this.remember();
        this.changed();
      },
    });
    this.changed();
  }

  private announce(entry: Tracked): void {
    if (!entry.announce) return;
    const id = entry.view.deviceId;
    if (entry.view.outcome === 'success') notifySuccess(PROVISION_NOTICES.complete);
    else if (entry.view.outcome === 'partial') notifyWarning(PROVISION_NOTICES.completeWithErrors);
    else notifyError(PROVISION_NOTICES.failed, PROVISION_NOTICES.failedText(id));
  }

  private forget(device: string): void {
    this.tracked.get(device)?.stream?.close();
    this.tracked.delete(device);
    if (this.modal === device) this.modal = null;
    this.remember();
    this.changed();
  }

  private remembered(): Array<{ entity: string; device: string }> {
    try {
      const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
      return Array.isArray(raw) ? (raw as Array<{ entity: string; device: string }>) : [];
    } catch {
      return [];
    }
  }

  /** Remembers the sessions still running. */
  private remember(): void {
    const running = [...this.tracked.entries()]
      .filter(([, t]) => isActive(t.view))
      .map(([device, t]) => ({ entity: t.entity, device }));
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(running));
    } catch {
      // Storage refused (private mode): a reload then finds sessions from the device list only.
    }
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

/** The tab's one provisioning store. */
export const provisioning = new ProvisioningStore();
