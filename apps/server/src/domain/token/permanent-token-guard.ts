import { eq } from 'drizzle-orm';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Db } from '../../db/client.ts';
import { accounts, permanentTokens } from '../../db/schema.ts';
import type { Bus } from '../../lib/bus.ts';
import { hashToken } from '../../lib/tokens.ts';
import { permissionsOf } from '../session/token-permissions.ts';

interface Entry {
  claims: AccessClaims | undefined;
  /** The token's description, for the audit log. */
  description?: string;
  at: number;
}

// `last_used` is written at most this often per token, so a busy token is not a write per request.
const LAST_USED_EVERY_MS = 60_000;

/**
 * Resolves a permanent token to the claims of its account, from memory. A revocation on this
 * instance applies at once, on others through the bus; cached answers are re-read after `ttlMs`.
 */
export class PermanentTokenGuard {
  private readonly cache = new Map<string, Entry>();
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly db: Db,
    bus: Bus,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {
    bus.subscribe('tokens.changed', ({ hashes }) => this.forget(hashes));
  }

  /** The account claims the token acts with, or undefined when it is unknown or revoked. */
  async resolve(token: string): Promise<AccessClaims | undefined> {
    const hash = hashToken(token);
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || now - entry.at >= this.ttlMs) {
      entry = { ...(await this.load(hash)), at: now };
      if (this.cache.size >= this.maxEntries) this.cache.clear();
      this.cache.set(hash, entry);
    }
    if (entry.claims) this.touch(hash, now);
    return entry.claims;
  }

  /** A resolved token's description (the audit log names a token by it), from memory. */
  describe(token: string): string | undefined {
    return this.cache.get(hashToken(token))?.description;
  }

  /** Drops cached answers, e.g. after a revocation or a change to the tokens' accounts. */
  forget(hashes: string[]): void {
    for (const h of hashes) this.cache.delete(h);
  }

  private async load(hash: string): Promise<Omit<Entry, 'at'>> {
    const [row] = await this.db
      .select({ account: accounts, created_at: permanentTokens.created_at, description: permanentTokens.description })
      .from(permanentTokens)
      .innerJoin(accounts, eq(permanentTokens.account_id, accounts.id))
      .where(eq(permanentTokens.token_hash, hash));
    if (!row) return { claims: undefined };
    const { account } = row;
    const claims: AccessClaims = {
      sub: account.name,
      entity: account.entity,
      subtype: account.subtype,
      permissions: permissionsOf(account),
      typ: 'access',
      iat: Math.floor(row.created_at.getTime() / 1000),
      // Permanent: valid until revoked. The guard, not `exp`, decides.
      exp: Number.MAX_SAFE_INTEGER,
    };
    return { claims, description: row.description };
  }

  private touch(hash: string, now: number): void {
    if (now - (this.lastWritten.get(hash) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastWritten.set(hash, now);
    if (this.lastWritten.size > this.maxEntries) this.lastWritten.clear();
    void this.db
      .update(permanentTokens)
      .set({ last_used: new Date(now) })
      .where(eq(permanentTokens.token_hash, hash))
      .catch(() => undefined);
  }
}
