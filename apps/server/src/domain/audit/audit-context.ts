import type { AuditActorKind } from '@fleet/shared/audit-actions';

/** Who acts in a request, from where: what every entry of the request records. */
export interface AuditActor {
  kind: AuditActorKind;
  /** An account's or device's name, a permanent token's hash prefix; null for the system. */
  id: string | null;
  /** An account's or device's name, a token's description. */
  name: string | null;
  /** The account a permanent token acts for. */
  account?: string | null;
}

export interface AuditContext {
  actor: AuditActor;
  address: string | null;
  userAgent: string | null;
  /** A superadmin acting inside an entity: where its entries go when the entry names none. */
  entity?: string | null;
  /** The request's id (its log lines' `reqId`): a command's entries carry it (docs/metrics.md). */
  requestId?: string | null;
  /** Set once the request recorded an entry (the 403 hook then records nothing more). */
  recorded?: boolean;
  /**
   * Bench only (BuildOptions.unaudited, bench/audit-cost.mjs): the request's changes run as they
   * did before the audit log, with no transaction of their own and no entry. Never set otherwise.
   */
  unaudited?: boolean;
}

/** The server acting on its own (sweeps, timeouts, compensations). */
export const SYSTEM_CONTEXT: AuditContext = {
  actor: { kind: 'system', id: null, name: 'system' },
  address: null,
  userAgent: null,
};

/** An account acting from a request's address and user agent (sign-in, before any claims). */
export const accountContext = (name: string, from: Pick<AuditContext, 'address' | 'userAgent'>): AuditContext => ({
  actor: { kind: 'account', id: name, name },
  address: from.address,
  userAgent: from.userAgent,
});
