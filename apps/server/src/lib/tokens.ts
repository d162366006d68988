import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AccessClaimsSchema, type AccessClaims } from '@fleet/shared/schemas/session';

/** Permanent API tokens start with this; access tokens are JWTs and refresh tokens start with `rt_`. */
export const PERMANENT_TOKEN_PREFIX = 'pt_';
/** Refresh tokens are opaque and start with this. */
export const REFRESH_TOKEN_PREFIX = 'rt';

const ISSUER = 'fleet-console';
const AUDIENCE = 'fleet-console-api';
const ALG = 'HS256';
/** How far ahead of this instance's clock an `iat` may be (instances' clocks drift a little). */
const IAT_LEEWAY_S = 5;

/**
 * True when every part of a compact JWT is in canonical base64url: no padding, no stray
 * characters, and no set spare bits in the last character, so one token has one spelling.
 */
export function isCanonicalJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  return parts.every((p) => /^[A-Za-z0-9_-]+$/.test(p) && Buffer.from(p, 'base64url').toString('base64url') === p);
}

export type AccessPayload = Omit<AccessClaims, 'iat' | 'exp' | 'typ'>;

/** Signs and verifies access tokens. Verified tokens are cached until they expire, so a hot route pays one lookup. */
export class AccessTokens {
  private readonly key: Uint8Array;
  private readonly cache = new Map<string, AccessClaims>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly cacheSize = 10_000,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A signed access JWT with `typ: access` for the given account claims. */
  sign(payload: AccessPayload): Promise<string> {
    return new SignJWT({
      entity: payload.entity,
      subtype: payload.subtype,
      permissions: payload.permissions,
      ...(payload.fam ? { fam: payload.fam } : {}),
      typ: 'access',
    })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(payload.sub)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired, canonically encoded access token, or undefined. Only HS256 is accepted. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    if (this.cache.has(token)) return this.cached(token);
    if (!isCanonicalJwt(token)) return undefined;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALG], issuer: ISSUER, audience: AUDIENCE });
      const claims = AccessClaimsSchema.safeParse(payload);
      if (!claims.success) return undefined;
      if (claims.data.iat > Date.now() / 1000 + IAT_LEEWAY_S) return undefined;
      if (this.cache.size >= this.cacheSize) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(token, claims.data);
      return claims.data;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return undefined;
      throw err;
    }
  }

  /** The claims of a token verified before and not yet expired, without waiting; undefined otherwise. */
  cached(token: string): AccessClaims | undefined {
    const claims = this.cache.get(token);
    if (!claims) return undefined;
    if (claims.exp * 1000 > Date.now()) return claims;
    this.cache.delete(token);
    return undefined;
  }

  /** Forgets cached verifications, e.g. when an account's access ends. */
  forget(predicate: (claims: AccessClaims) => boolean): void {
    for (const [token, claims] of this.cache) if (predicate(claims)) this.cache.delete(token);
  }
}

/** A new opaque refresh token (256 random bits). */
export function newOpaqueToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** The stored form of an opaque token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
