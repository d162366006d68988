import { HttpError } from './http-error.ts';

/** The one character PostgreSQL refuses in text and jsonb, whatever the encoding. */
export const NUL_MESSAGE = 'Text may not contain the null character (U+0000)';
export const DEPTH_MESSAGE = 'The value is nested too deeply';

/** Deeper JSON than this is refused: PostgreSQL's jsonb and recursive validators have stack limits. */
export const MAX_JSON_DEPTH = 64;

export interface Unstorable {
  /** Where: `document.description`, `items.3`; '' for the value itself. */
  path: string;
  reason: 'nul' | 'depth';
}

/**
 * The first place in a parsed JSON value that a database cannot store: a string or key holding
 * U+0000, or nesting deeper than `maxDepth`. Walks without recursion, so no input can overflow it.
 */
export function findUnstorable(value: unknown, maxDepth = MAX_JSON_DEPTH): Unstorable | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return { path: item.path, reason: 'nul' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (item.depth >= maxDepth) return { path: item.path, reason: 'depth' };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [key, child] of entries) {
      const path = item.path ? `${item.path}.${key}` : key;
      if (key.includes('\u0000')) return { path: item.path, reason: 'nul' };
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return undefined;
}

/** The 400 for text a database cannot store, naming where it was found. */
export function unstorableText(where: string): HttpError {
  return new HttpError(400, NUL_MESSAGE, `${where} holds U+0000, which the database cannot store`, {
    [where]: [NUL_MESSAGE],
  });
}
