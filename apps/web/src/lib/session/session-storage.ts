/** The four stored session values (core §4, §9); key names are ours. */
export const SESSION_KEYS = {
  accessToken: 'fleet.accessToken',
  refreshToken: 'fleet.refreshToken',
  username: 'fleet.username',
  entity: 'fleet.entity',
} as const;

/** The subset of the Web Storage API we use, so tests can pass a Map-backed fake. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface StoredSession {
  accessToken: string | null;
  refreshToken: string | null;
  username: string | null;
  entity: string | null;
}

// Storage can throw (private mode, quota, disabled cookies); the console still works in memory then.
function safeGet(storage: KeyValueStorage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

function safeSet(storage: KeyValueStorage, key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Ignored on purpose: see safeGet.
  }
}

/** Reads the four values as they are in storage right now. */
export function readStoredSession(storage: KeyValueStorage): StoredSession {
  return {
    accessToken: safeGet(storage, SESSION_KEYS.accessToken),
    refreshToken: safeGet(storage, SESSION_KEYS.refreshToken),
    username: safeGet(storage, SESSION_KEYS.username),
    entity: safeGet(storage, SESSION_KEYS.entity),
  };
}

/**
 * Writes the four values. The access token goes last: other tabs treat its arrival as
 * "a complete session is stored", so identity must already be there when it lands.
 */
export function writeStoredSession(storage: KeyValueStorage, value: StoredSession): void {
  safeSet(storage, SESSION_KEYS.username, value.username);
  safeSet(storage, SESSION_KEYS.entity, value.entity);
  safeSet(storage, SESSION_KEYS.refreshToken, value.refreshToken);
  safeSet(storage, SESSION_KEYS.accessToken, value.accessToken);
}

/** Removes all four values. */
export function clearStoredSession(storage: KeyValueStorage): void {
  for (const key of Object.values(SESSION_KEYS)) safeSet(storage, key, null);
}

/** A Map-backed storage for tests and for browsers where localStorage is unavailable. */
export function createMemoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}
