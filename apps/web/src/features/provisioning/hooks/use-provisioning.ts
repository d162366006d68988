import { useEffect, useSyncExternalStore } from 'react';
import { notifier } from '@/lib/notify.ts';
import { openSessionStream } from '@/lib/api/session-stream.ts';
import { cancelProvisioning, getProvisioning, provisionPath, startProvisioning } from '../api/provision.ts';
import { createProvisioningStore, type ProvisioningState } from './provisioning-store.ts';

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The tab's one provisioning store, on the app's API client, session and notices. */
export const provisioning = createProvisioningStore({
  api: { start: startProvisioning, cancel: cancelProvisioning, get: getProvisioning },
  openStream: (entity, device, handlers) => openSessionStream(provisionPath(entity, device, '/events'), handlers),
  notices: notifier,
  storage: typeof window === 'undefined' ? null : browserStorage(),
});

/** What `select` picks from the provisioning state; re-renders only when that changes (by identity). */
export function useProvisioning<T>(select: (state: ProvisioningState) => T): T {
  const read = () => select(provisioning.getState());
  return useSyncExternalStore(provisioning.subscribe, read, read);
}

/** Picks up the sessions followed before a reload, once per mount of the screen. */
export function useResumeProvisioning() {
  useEffect(() => provisioning.resume(), []);
}
