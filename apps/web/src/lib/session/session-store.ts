import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { CurrentAccount } from '@fleet/shared/schemas/account';
import { decodeAccessClaims } from './jwt.ts';
import {
  clearStoredSession,
  readStoredSession,
  writeStoredSession,
  type KeyValueStorage,
  type StoredSession,
} from './session-storage.ts';

/** The entity a superadmin's login answer carries; their account lives at the plain path. */
export const LANDLORD_ENTITY = 'landlord';

/** Why the last sign-out happened; the guards send only a `logout` to the plain login page. */
export type SignOutReason = 'logout' | 'auth-error' | 'expired' | 'load-failed' | 'other-tab' | 'invalid';

/** What changed, passed to listeners. */
export type SessionChange = 'sign-in' | 'tokens' | 'account' | 'sign-out' | 'adopt';

export interface SignedInSession {
  status: 'signed-in';
  accessToken: string;
  refreshToken: string;
  username: string;
  entity: string;
  claims: AccessClaims;
  /** Null until the account has been (re)loaded from the server. */
  account: CurrentAccount | null;
  signOutReason: null;
}

export interface SignedOutSession {
  status: 'signed-out';
  accessToken: null;
  refreshToken: null;
  username: null;
  entity: null;
  claims: null;
  account: null;
  signOutReason: SignOutReason | null;
}

export type SessionSnapshot = SignedInSession | SignedOutSession;

export type SessionListener = (change: SessionChange, snapshot: SessionSnapshot) => void;

function signedOut(reason: SignOutReason | null): SignedOutSession {
  return {
    status: 'signed-out',
    accessToken: null,
    refreshToken: null,
    username: null,
    entity: null,
    claims: null,
    account: null,
    signOutReason: reason,
  };
}

/** A complete, decodable set of values makes a signed-in session; anything less is signed out. */
function fromStored(stored: StoredSession, account: CurrentAccount | null): SessionSnapshot | null {
  const { accessToken, refreshToken, username, entity } = stored;
  if (!accessToken || !refreshToken || !username || !entity) return null;
  const claims = decodeAccessClaims(accessToken);
  if (claims === null) return null;
  return { status: 'signed-in', accessToken, refreshToken, username, entity, claims, account, signOutReason: null };
}

/**
 * The session: the four stored values plus the loaded account. Framework-free; React reads it
 * through useSyncExternalStore. Snapshots are immutable so identity tells whether anything changed.
 */
export class SessionStore {
  #storage: KeyValueStorage;
  #snapshot: SessionSnapshot;
  #listeners = new Set<SessionListener>();

  constructor(storage: KeyValueStorage) {
    this.#storage = storage;
    this.#snapshot = fromStored(readStoredSession(storage), null) ?? signedOut(null);
  }

  /** The current immutable snapshot. */
  getSnapshot = (): SessionSnapshot => this.#snapshot;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: SessionListener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** The values as other tabs may have left them in storage, bypassing the in-memory copy. */
  readStored(): StoredSession {
    return readStoredSession(this.#storage);
  }

  /** Stores a fresh login; returns false (and stays signed out) when the access token is unreadable. */
  signIn(values: { accessToken: string; refreshToken: string; username: string; entity: string }): boolean {
    const next = fromStored(values, null);
    if (next === null) {
      this.signOut('invalid');
      return false;
    }
    writeStoredSession(this.#storage, values);
    this.#set(next, 'sign-in');
    return true;
  }

  /** Replaces the token pair after a refresh; identity and the loaded account are kept. */
  setTokens(accessToken: string, refreshToken: string): void {
    const current = this.#snapshot;
    if (current.status !== 'signed-in') return;
    const stored = { accessToken, refreshToken, username: current.username, entity: current.entity };
    const next = fromStored(stored, current.account);
    if (next === null) {
      this.signOut('invalid');
      return;
    }
    writeStoredSession(this.#storage, stored);
    this.#set(next, 'tokens');
  }

  /** Attaches the account loaded from the server to the current session. */
  setAccount(account: CurrentAccount): void {
    const current = this.#snapshot;
    if (current.status !== 'signed-in') return;
    this.#set({ ...current, account }, 'account');
  }

  /** Clears all four stored values and the account. */
  signOut(reason: SignOutReason): void {
    clearStoredSession(this.#storage);
    if (this.#snapshot.status === 'signed-out' && this.#snapshot.signOutReason === reason) return;
    this.#set(signedOut(reason), 'sign-out');
  }

  /**
   * Takes over whatever another tab stored (a refresh, a sign-in, a sign-out). The account is kept
   * only when the identity is unchanged, so a different user's data never shows under a new login.
   */
  adoptStored(): void {
    const current = this.#snapshot;
    const stored = this.readStored();
    if (
      current.accessToken === stored.accessToken &&
      current.refreshToken === stored.refreshToken &&
      current.username === stored.username &&
      current.entity === stored.entity
    ) {
      return;
    }
    const sameUser = current.username === stored.username && current.entity === stored.entity;
    const next = fromStored(stored, sameUser ? current.account : null);
    if (next === null) {
      if (current.status === 'signed-out') return;
      this.#set(signedOut('other-tab'), 'adopt');
      return;
    }
    this.#set(next, 'adopt');
  }

  #set(next: SessionSnapshot, change: SessionChange): void {
    this.#snapshot = next;
    for (const listener of [...this.#listeners]) listener(change, next);
  }
}
