import { isLandlord } from '../session/jwt.ts';
import type { AccessClaims } from '@fleet/shared/schemas/session';

export const LOGIN_PATH = '/auth/login';

// Any origin works: it only serves to prove the target cannot leave the current one.
const PROBE_ORIGIN = 'https://fleet-console.invalid';

/**
 * A redirect target that is safe to navigate to after sign-in, or null. Only same-origin
 * relative paths starting with a single "/" pass; "//host", "/\host", absolute URLs, control
 * characters and the login page itself are refused.
 */
export function sanitizeRedirect(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  if (url.pathname === LOGIN_PATH || url.pathname.startsWith(`${LOGIN_PATH}/`)) return null;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise "/..//host" into "//host", which a browser reads as another origin.
  return target.startsWith('//') ? null : target;
}

/** The login URL that brings the user back to `target` (path + search + hash) afterwards. */
export function loginPathFor(target: string): string {
  const safe = sanitizeRedirect(target);
  // "/" only redirects onward, and dropping it lets sign-in pick the role's home instead.
  if (safe === null || safe === '/') return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(safe)}`;
}

/** Where a user lands after sign-in without a target: landlords the entity list, others accounts. */
export function homePathFor(claims: Pick<AccessClaims, 'subtype'> | null): string {
  return isLandlord(claims) ? '/entity' : '/account';
}

/** The post-sign-in destination: the sanitised `redirect` when present, else the role's home. */
export function postLoginPath(redirect: string | null, claims: Pick<AccessClaims, 'subtype'> | null): string {
  return sanitizeRedirect(redirect) ?? homePathFor(claims);
}
