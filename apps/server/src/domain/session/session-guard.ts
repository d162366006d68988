import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { accounts, sessionFamilies } from '../../db/schema.ts';
import type { Bus } from '../../lib/bus.ts';

/** What is known of a session family: the name of its account while it is active, else null. */
type FamilyOwner = string | null;

/**
 * Answers whether a session family is still active, and whose it is, from memory. Revocations on
 * this instance apply at once; other instances learn through the bus, and a cached answer is
 * re-read after `ttlMs` in case an event was missed.
 */
export class SessionGuard {
  private readonly cache = new Map<string, { owner: FamilyOwner; at: number }>();
  // Concurrent requests of one session share a single database read when the entry is stale.
  private readonly pending = new Map<string, Promise<FamilyOwner>>();

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 50_000,
  ) {
    bus.subscribe('families.revoked', ({ ids }) => this.markRevoked(ids));
  }

  /** The fresh cached owner of a family (null: ended), without waiting; undefined when it must be read. */
  cached(familyId: string): FamilyOwner | undefined {
    const hit = this.cache.get(familyId);
    return hit && Date.now() - hit.at < this.ttlMs ? hit.owner : undefined;
  }

  /**
   * The account name of a family that exists, is not revoked and has not expired; null otherwise.
   * A token is the family's only when its subject is this name.
   */
  async ownerOf(familyId: string): Promise<FamilyOwner> {
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

  private async read(familyId: string, now: number): Promise<FamilyOwner> {
    const [row] = await this.db
      .select({ name: accounts.name })
      .from(sessionFamilies)
      .innerJoin(accounts, eq(accounts.id, sessionFamilies.account_id))
      .where(
        and(
          eq(sessionFamilies.id, familyId),
          isNull(sessionFamilies.revoked_at),
          gt(sessionFamilies.expires_at, new Date()),
        ),
      );
    // A revocation that arrived while this read was under way wins over what the read saw.
    const marked = this.cache.get(familyId);
    if (marked && marked.owner === null && marked.at >= now) return null;
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    const owner = row?.name ?? null;
    this.cache.set(familyId, { owner, at: now });
    return owner;
  }

  markRevoked(ids: string[]): void {
    const at = Date.now();
    for (const id of ids) this.cache.set(id, { owner: null, at });
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
