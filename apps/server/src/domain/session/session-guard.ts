import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { sessionFamilies } from '../../db/schema.ts';
import type { Bus } from '../../lib/bus.ts';

/**
 * Answers whether a session family is still active, from memory. Revocations on this instance
 * apply at once; other instances learn through the bus, and a cached answer is re-read after
 * `ttlMs` in case an event was missed.
 */
export class SessionGuard {
  private readonly cache = new Map<string, { active: boolean; at: number }>();
  // Concurrent requests of one session share a single database read when the entry is stale.
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 50_000,
  ) {
    bus.subscribe('families.revoked', ({ ids }) => this.markRevoked(ids));
  }

  /** The fresh cached answer for a family, without waiting; undefined when it must be read. */
  cached(familyId: string): boolean | undefined {
    const hit = this.cache.get(familyId);
    return hit && Date.now() - hit.at < this.ttlMs ? hit.active : undefined;
  }

  /** True when the family exists, is not revoked and has not expired. */
  async isActive(familyId: string): Promise<boolean> {
    const now = Date.now();
    const hit = this.cached(familyId);
    if (hit !== undefined) return hit;
    let read = this.pending.get(familyId);
    if (!read) {
      read = this.read(familyId, now).finally(() => this.pending.delete(familyId));
      this.pending.set(familyId, read);
    }
    return read;
  }

  private async read(familyId: string, now: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sessionFamilies.id })
      .from(sessionFamilies)
      .where(
        and(
          eq(sessionFamilies.id, familyId),
          isNull(sessionFamilies.revoked_at),
          gt(sessionFamilies.expires_at, new Date()),
        ),
      );
    // A revocation that arrived while this read was under way wins over what the read saw.
    const marked = this.cache.get(familyId);
    if (marked && !marked.active && marked.at >= now) return false;
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(familyId, { active: row !== undefined, at: now });
    return row !== undefined;
  }

  markRevoked(ids: string[]): void {
    const at = Date.now();
    for (const id of ids) this.cache.set(id, { active: false, at });
  }
}

/**
 * Revokes the given families in the database, then tells every instance. Call after the
 * transaction that decided it has committed.
 */
export async function revokeFamilies(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(sessionFamilies)
    .set({ revoked_at: new Date() })
    .where(and(inArray(sessionFamilies.id, ids), isNull(sessionFamilies.revoked_at)));
}

/** The active families of these accounts, optionally keeping one (the caller's own session). */
export async function familiesOf(db: Executor, accountIds: string[], keep?: string): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .select({ id: sessionFamilies.id })
    .from(sessionFamilies)
    .where(and(inArray(sessionFamilies.account_id, accountIds), isNull(sessionFamilies.revoked_at)));
  return rows.map((r) => r.id).filter((id) => id !== keep);
}
