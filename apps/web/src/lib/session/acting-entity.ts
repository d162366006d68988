import { isLandlord } from './jwt.ts';
import type { SessionSnapshot } from './session-store.ts';
import type { KeyValueStorage } from './session-storage.ts';

/** Where a tab keeps the entity its superadmin opened (sessionStorage: each tab its own). */
export const ACTING_ENTITY_KEY = 'fleet.actingEntity';

/**
 * The entity a superadmin has opened to look and act within (issue 25), or null in the landlord
 * view. Kept per tab so a reload stays inside and another tab may be inside another entity.
 * Framework-free; React reads it through useSyncExternalStore.
 */
export class ActingEntityStore {
  #storage: KeyValueStorage | null;
  #value: string | null;
  #listeners = new Set<() => void>();

  constructor(storage: KeyValueStorage | null) {
    this.#storage = storage;
    let stored: string | null = null;
    try {
      stored = storage?.getItem(ACTING_ENTITY_KEY) ?? null;
    } catch {
      // Storage may be disabled: the choice then lasts as long as the page.
    }
    this.#value = stored === '' ? null : stored;
  }

  /** The opened entity, or null. */
  get = (): string | null => this.#value;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Opens `entity` (null: back to the landlord view); no-op when unchanged. */
  set(entity: string | null): void {
    const next = entity === '' ? null : entity;
    if (next === this.#value) return;
    this.#value = next;
    try {
      if (next === null) this.#storage?.removeItem(ACTING_ENTITY_KEY);
      else this.#storage?.setItem(ACTING_ENTITY_KEY, next);
    } catch {
      // Ignored on purpose: see the constructor.
    }
    for (const listener of [...this.#listeners]) listener();
  }
}

/**
 * The entity entity screens and `tenant/{entity}/` calls act in: a user's own; for a superadmin
 * the one it opened (null while it has opened none: never the landlord scope, never empty).
 */
export function activeEntityOf(snapshot: SessionSnapshot, acting: string | null): string | null {
  if (snapshot.status !== 'signed-in') return null;
  return isLandlord(snapshot.claims) ? acting : snapshot.entity;
}
