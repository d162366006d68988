import { HttpError } from './http-error.ts';

/** The one character PostgreSQL refuses in text and jsonb, whatever the encoding. */
export const NUL_MESSAGE = 'Text may not contain the null character (U+0000)';
/**
 * Half of a UTF-16 surrogate pair on its own (JSON's `"\ud800"`) is no character at all: UTF-8
 * cannot carry it, so a text column would silently store U+FFFD and jsonb refuses it. Refused alike.
 */
export const SURROGATE_MESSAGE = 'Text may not contain an unpaired surrogate (U+D800 to U+DFFF)';
export const DEPTH_MESSAGE = 'The value is nested too deeply';

/** Deeper JSON than this is refused: PostgreSQL's jsonb and recursive validators have stack limits. */
export const MAX_JSON_DEPTH = 64;

export interface Unstorable {
  /** Where: `document.description`, `items.3`; '' for the value itself. */
  path: string;
  reason: 'nul' | 'surrogate' | 'depth';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored, or undefined when it can. */
export function textProblem(text: string): 'nul' | 'surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(text) ? 'surrogate' : undefined;
}

/**
 * The first place in a parsed JSON value that a database cannot store: a string or key holding
 * U+0000 or an unpaired surrogate, or nesting deeper than `maxDepth`. Walks without recursion, so
 * no input can overflow it.
 */
export function findUnstorable(value: unknown, maxDepth = MAX_JSON_DEPTH): Unstorable | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const v = item.value;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { path: item.path, reason: problem };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (item.depth >= maxDepth) return { path: item.path, reason: 'depth' };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [key, child] of entries) {
      const path = item.path ? `${item.path}.${key}` : key;
      const problem = textProblem(key);
      if (problem) return { path: item.path, reason: problem };
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return undefined;
}

/** The 400 for text a database cannot store, naming where it was found. */
export function unstorableText(where: string, reason: 'nul' | 'surrogate' = 'nul'): HttpError {
  const [message, what] = reason === 'nul' ? [NUL_MESSAGE, 'U+0000'] : [SURROGATE_MESSAGE, 'an unpaired surrogate'];
  return new HttpError(400, message, `${where} holds ${what}, which the database cannot store`, {
    [where]: [message],
  });
}
