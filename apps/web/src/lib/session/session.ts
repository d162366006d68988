import { SessionStore } from './session-store.ts';
import { createMemoryStorage, type KeyValueStorage } from './session-storage.ts';
import { createTokenRefresher, type LockRunner } from './token-refresher.ts';

function browserStorage(): KeyValueStorage {
  try {
    // Accessing localStorage throws when storage is disabled; the session then lasts one tab load.
    return window.localStorage;
  } catch {
    return createMemoryStorage();
  }
}

function browserLocks(): LockRunner | undefined {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return undefined;
  return { request: (name, callback) => locks.request(name, callback) };
}

/** The app's one session, backed by localStorage. */
export const session = new SessionStore(browserStorage());

/** The app's one token refresher: shared by the 401 recovery and the refresh scheduler. */
export const refresher = createTokenRefresher({
  fetch: (input, init) => fetch(input, init),
  session,
  locks: browserLocks(),
});
