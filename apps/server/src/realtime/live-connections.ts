import type { FastifyInstance } from 'fastify';
import type { LiveEndReason } from '@fleet/shared/beacon-constants';
import type { AccessClaims } from '@fleet/shared/schemas/session';
import type { Deps, LiveCredential } from '../domain/deps.ts';
import { entityExists } from '../domain/entity/entity-exists.ts';
import type { Bus } from '../lib/bus.ts';
import { HttpError, notFound } from '../lib/http-error.ts';
import { PERMANENT_TOKEN_PREFIX, hashToken } from '../lib/tokens.ts';
import { assertEntityAccess, claimsOf, isLandlord } from '../plugins/auth.ts';

/** Node fires a longer timeout at once; an expiry further off than this is left to the re-check. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type { LiveCredential } from '../domain/deps.ts';

export interface LiveConnectionsOptions {
  bus: Bus;
  /** The claims of a bearer that is still valid; throws an HttpError otherwise (plugins/auth.ts `claimsOf`). */
  verify(token: string): Promise<AccessClaims>;
  entityExists(name: string): Promise<boolean>;
  /** Every connection's right is read again this often, in case a bus message was missed. */
  recheckMs: number;
  onError(err: unknown): void;
}

interface Connection extends LiveCredential {
  /** The stored form of a permanent token; undefined for an access token. */
  hash: string | undefined;
  end(reason: LiveEndReason): void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The right of every live connection of this instance (Socket.IO sockets, event streams): one
 * ends when its access token expires (a timer at `exp`), when the bus says its session, permanent
 * token, account or entity is gone (from any instance), or when the periodic re-check finds so
 * (docs/decisions/2026-11-25-live-revocation.md).
 */
export class LiveConnections {
  private readonly open = new Set<Connection>();
  private readonly sweeper: NodeJS.Timeout;
  private sweeping = false;

  constructor(private readonly o: LiveConnectionsOptions) {
    o.bus.subscribe('families.revoked', ({ ids }) => {
      const ended = new Set(ids);
      this.endWhere((c) => c.claims.fam !== undefined && ended.has(c.claims.fam));
    });
    o.bus.subscribe('entities.removed', ({ names }) => {
      const gone = new Set(names);
      this.endWhere((c) => gone.has(c.entity));
    });
    // Revoked, or its account changed or removed: read the token again.
    o.bus.subscribe('tokens.changed', ({ hashes }) => {
      const changed = new Set(hashes);
      for (const c of [...this.open]) if (c.hash && changed.has(c.hash)) void this.check(c);
    });
    this.sweeper = setInterval(() => void this.sweep(), o.recheckMs);
    this.sweeper.unref();
  }

  /** Connections followed on this instance. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Follows a connection until its right lapses, then calls `end` once with the reason. Answers
   * the function to call when the connection closes for any other reason.
   */
  watch(credential: LiveCredential, end: (reason: LiveEndReason) => void): () => void {
    const hash = credential.token.startsWith(PERMANENT_TOKEN_PREFIX) ? hashToken(credential.token) : undefined;
    const c: Connection = { ...credential, hash, end, timer: undefined };
    this.open.add(c);
    const left = c.claims.exp * 1000 - Date.now();
    if (left <= MAX_TIMER_MS) {
      c.timer = setTimeout(() => this.finish(c, 'token_expired'), Math.max(0, left));
      c.timer.unref();
    }
    // A revocation between the handshake's check and now was announced before this connection was
    // listed: the guards already know it, and this read (from their memory) finds it.
    void this.check(c);
    return () => this.forget(c);
  }

  /** Stops following every connection (the server is closing them). */
  close(): void {
    clearInterval(this.sweeper);
    for (const c of this.open) clearTimeout(c.timer);
    this.open.clear();
  }

  /** Ends the connection unless its credential still gives it its entity. */
  private async check(c: Connection): Promise<void> {
    let claims: AccessClaims;
    try {
      claims = await this.o.verify(c.token);
      assertEntityAccess(claims, c.entity);
      if (isLandlord(claims) && !(await this.o.entityExists(c.entity))) throw notFound('Entity');
    } catch (err) {
      if (!(err instanceof HttpError)) return this.o.onError(err);
      return this.finish(c, c.claims.exp * 1000 <= Date.now() ? 'token_expired' : 'revoked');
    }
    if (this.open.has(c)) c.claims = claims;
  }

  /** One connection at a time, so a sweep is never a burst of reads. */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const c of [...this.open]) if (this.open.has(c)) await this.check(c);
    } finally {
      this.sweeping = false;
    }
  }

  private endWhere(match: (c: Connection) => boolean): void {
    for (const c of [...this.open]) if (match(c)) this.finish(c, 'revoked');
  }

  private finish(c: Connection, reason: LiveEndReason): void {
    if (!this.open.has(c)) return;
    this.forget(c);
    try {
      c.end(reason);
    } catch (err) {
      this.o.onError(err);
    }
  }

  private forget(c: Connection): void {
    clearTimeout(c.timer);
    this.open.delete(c);
  }
}

/**
 * The instance's live connections, verified with the app's guards (`deps()` is read on first use,
 * so this can be built inside the object it belongs to); stopped when the app closes.
 */
export function startLiveConnections(
  app: FastifyInstance,
  o: { bus: Bus; recheckS: number; deps: () => Deps },
): LiveConnections {
  const live = new LiveConnections({
    bus: o.bus,
    verify: (token) => claimsOf(token, o.deps()),
    entityExists: (name) => entityExists(o.deps().db, name),
    recheckMs: o.recheckS * 1000,
    onError: (err) => app.log.error({ err }, 'live connections: a re-check failed'),
  });
  app.addHook('onClose', async () => live.close());
  return live;
}
