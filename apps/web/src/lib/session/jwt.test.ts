import { describe, expect, it } from 'vitest';
import { decodeAccessClaims, decodeJwtPayload, hasAllAccess, isLandlord, readTokenTimes } from './jwt.ts';
import { makeJwt } from './test-tokens.ts';

const claims = {
  sub: 'jürgen',
  entity: 'acme',
  subtype: 'admin',
  permissions: ['Site_read', 'all'],
  typ: 'access',
  iat: 1_700_000_000,
  exp: 1_700_000_900,
};

describe('JWT claims', () => {
  it('decodes the base64url payload, UTF-8 included', () => {
    expect(decodeAccessClaims(makeJwt(claims))).toEqual(claims);
  });

  it('handles base64url characters and missing padding', () => {
    // "?>?" encodes to "Pz4_" in base64url ("Pz4/" in base64): exercises the _ mapping.
    const token = makeJwt({ ...claims, sub: '?>?>', entity: null });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(decodeAccessClaims(token)).toMatchObject({ sub: '?>?>', entity: null });
  });

  it('refuses malformed tokens and tokens without the access claims', () => {
    expect(decodeAccessClaims('')).toBeNull();
    expect(decodeAccessClaims('a.b')).toBeNull();
    expect(decodeAccessClaims('x.###.y')).toBeNull();
    expect(decodeAccessClaims(`x.${btoa('not json')}.y`)).toBeNull();
    expect(decodeAccessClaims(makeJwt({ ...claims, typ: 'refresh' }))).toBeNull();
    expect(decodeAccessClaims(makeJwt({ sub: 'a' }))).toBeNull();
    expect(decodeJwtPayload(`x.${btoa('[1]')}.y`)).toBeNull();
  });

  it('reads issue and expiry times in milliseconds', () => {
    expect(readTokenTimes(makeJwt(claims))).toEqual({ issuedAt: 1_700_000_000_000, expiresAt: 1_700_000_900_000 });
    expect(readTokenTimes(makeJwt({ sub: 'a' }))).toBeNull();
  });

  it('derives landlord and all-access rights from the claims', () => {
    expect(isLandlord({ subtype: 'sadmin' })).toBe(true);
    expect(isLandlord({ subtype: 'admin' })).toBe(false);
    expect(isLandlord(null)).toBe(false);
    expect(hasAllAccess({ permissions: ['Site_read', 'all'] })).toBe(true);
    expect(hasAllAccess({ permissions: ['Site_all'] })).toBe(false);
    expect(hasAllAccess(null)).toBe(false);
  });
});
