import { useEffect, useSyncExternalStore } from 'react';
import { provisioning } from './provisioning-store.ts';

/** Re-renders on every change of the provisioning store; answers the store. */
export function useProvisioning() {
  useSyncExternalStore(provisioning.subscribe, provisioning.getVersion, provisioning.getVersion);
  return provisioning;
}

/** Picks up the sessions followed before a reload, once per mount of the screen. */
export function useResumeProvisioning() {
  useEffect(() => provisioning.resume(), []);
}
