import { isAccessClaims } from '@fleet/shared/guards';
import type { AccessClaims } from '@fleet/shared/schemas/session';

/** Decodes a base64url segment to text; returns null when it is not valid base64url. */
function decodeBase64Url(segment: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return null;
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The JSON payload of a JWT, unverified (the server verifies); null when malformed. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] === undefined) return null;
  const text = decodeBase64Url(parts[1]);
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The access-token claims (sub, entity, subtype, permissions, typ, iat, exp), or null when invalid. */
export function decodeAccessClaims(token: string): AccessClaims | null {
  const payload = decodeJwtPayload(token);
  if (payload === null) return null;
  return isAccessClaims(payload) ? payload : null;
}

export interface TokenTimes {
  /** Issued-at, ms since epoch. */
  issuedAt: number;
  /** Expiry, ms since epoch. */
  expiresAt: number;
}

/** Issue and expiry instants of any JWT in ms; null when the token carries no numeric iat/exp. */
export function readTokenTimes(token: string): TokenTimes | null {
  const payload = decodeJwtPayload(token);
  if (payload === null) return null;
  const { iat, exp } = payload;
  if (typeof iat !== 'number' || typeof exp !== 'number') return null;
  return { issuedAt: iat * 1000, expiresAt: exp * 1000 };
}

/** A landlord is a superadmin (subtype sadmin); only they get the landlord right (core §6). */
export function isLandlord(claims: Pick<AccessClaims, 'subtype'> | null): boolean {
  return claims?.subtype === 'sadmin';
}

/** All access means the permissions claim holds `all` (core §6). */
export function hasAllAccess(claims: Pick<AccessClaims, 'permissions'> | null): boolean {
  return claims?.permissions.includes('all') ?? false;
}
