// The one place secrets leave an audit entry's changes (docs/audit.md): a key that names a
// secret keeps only the fact that it was set, and a value that looks like one is masked too.

export const REDACTED = '[redacted]';

/** Keys whose values are secrets wherever they appear: passwords, token values, device secrets, links. */
const SECRET_KEY =
  /(^|_)(password|passwd|secret|token|refresh_token|access_token|mqtt_secret_hash|password_hash|token_hash|signature|sig|url|href|authorization|private_key)$/i;

/** Values that are secrets whatever their key: our opaque tokens, JWTs, signed links. */
const SECRET_VALUE = [
  /^(pt|rt)_[A-Za-z0-9_-]{16,}$/,
  /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/,
  /[?&](sig|signature|X-Amz-Signature|token|expires)=/i,
];

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return SECRET_VALUE.some((re) => re.test(value)) ? REDACTED : value;
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    out[key] = SECRET_KEY.test(key) ? (v === null || v === undefined ? v : REDACTED) : redactValue(v, depth + 1);
  }
  return out;
}

/** A copy of `value` with every secret replaced by `[redacted]`. */
export function redact<T>(value: T): T {
  return redactValue(value, 0) as T;
}

/**
 * The fields that differ between `before` and `after`, each side redacted; unchanged fields are
 * left out. Either side may be absent (a creation, a deletion).
 */
export function changesOf(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): { before?: Record<string, unknown>; after?: Record<string, unknown> } {
  if (!before || !after) {
    return { ...(before ? { before: redact(before) } : {}), ...(after ? { after: redact(after) } : {}) };
  }
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'updated_at') continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    b[key] = before[key];
    a[key] = after[key];
  }
  return { before: redact(b), after: redact(a) };
}
