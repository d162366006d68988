// Test helper (not shipped: only *.test.ts files import it).
import type { AccessClaims } from '@fleet/shared/schemas/session';

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT with the given payload (the console never verifies signatures). */
export function makeJwt(payload: Record<string, unknown>): string {
  return `${base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.sig`;
}

/** An access token issued `issuedAt` (ms) that lives `lifetimeMs`, with overridable claims. */
export function makeAccessToken(issuedAt: number, lifetimeMs: number, claims: Partial<AccessClaims> = {}): string {
  return makeJwt({
    sub: 'alice',
    entity: 'acme',
    subtype: 'admin',
    permissions: ['all'],
    typ: 'access',
    iat: issuedAt / 1000,
    exp: (issuedAt + lifetimeMs) / 1000,
    ...claims,
  });
}
