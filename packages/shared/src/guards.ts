import { PASSWORD_MIN_LENGTH, SUBTYPES, type Subtype } from './constants.ts';
import { MESSAGES } from './messages.ts';
import type { CurrentAccount } from './schemas/account.ts';
import type { ErrorInfo } from './schemas/error.ts';
import type { AccessClaims, LoginResponse, RefreshResponse } from './schemas/session.ts';

/**
 * Zod-free checks of the answers the login page and the session code read, so the first page a
 * person loads carries no schema library. `guards.test.ts` holds them to the zod schemas.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStrOrNull = (v: unknown) => v === null || isStr(v);
const isStrArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const isSubtype = (v: unknown): v is Subtype => isStr(v) && (SUBTYPES as readonly string[]).includes(v);

export function isErrorInfo(v: unknown): v is ErrorInfo {
  if (!isObj(v) || !isObj(v.errorInfo)) return false;
  const e = v.errorInfo;
  const detailsOk =
    e.details === undefined || (isObj(e.details) && Object.values(e.details).every((d) => isStrArray(d)));
  return Number.isInteger(e.code) && isStr(e.userMessage) && isStr(e.developerMessage) && detailsOk;
}

export function isRefreshResponse(v: unknown): v is RefreshResponse {
  return isObj(v) && isStr(v.access_token) && isStr(v.refresh_token);
}

export function isLoginResponse(v: unknown): v is LoginResponse {
  return isRefreshResponse(v) && isStr((v as Obj).logged_in_as) && isStrOrNull((v as Obj).entity);
}

export function isAccessClaims(v: unknown): v is AccessClaims {
  return (
    isObj(v) &&
    isStr(v.sub) &&
    isStrOrNull(v.entity) &&
    isSubtype(v.subtype) &&
    isStrArray(v.permissions) &&
    v.typ === 'access' &&
    isNum(v.iat) &&
    isNum(v.exp) &&
    (v.fam === undefined || isStr(v.fam))
  );
}

export function isCurrentAccountResponse(v: unknown): v is { data: CurrentAccount } {
  if (!isObj(v) || !isObj(v.data)) return false;
  const a = v.data;
  const entityOk = a._entity === null || (isObj(a._entity) && isStr(a._entity.name) && isStr(a._entity.description));
  return (
    isStr(a.name) &&
    isStr(a.email) &&
    isSubtype(a.subtype) &&
    isStrOrNull(a.entity) &&
    isStrArray(a.access) &&
    isStr(a.created_at) &&
    isStr(a.updated_at) &&
    entityOk
  );
}

/** The login form's rules (core §5) with the spec's messages: username required; password required, min 6. */
export function loginFieldErrors(name: string, password: string): { name?: string; password?: string } {
  const errors: { name?: string; password?: string } = {};
  if (name.trim() === '') errors.name = MESSAGES.required;
  else if (name.trim().length > 64) errors.name = 'At most 64 characters';
  if (password === '') errors.password = MESSAGES.required;
  else if (password.length < PASSWORD_MIN_LENGTH) errors.password = MESSAGES.passwordMin;
  else if (password.length > 1024) errors.password = 'At most 1024 characters';
  return errors;
}
