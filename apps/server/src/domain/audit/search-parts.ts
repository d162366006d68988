/**
 * The parts of a free-text search that the trigram index can read on their own, and which of them
 * a count should read (docs/decisions/2026-11-29-audit-search-count-by-rare-words.md). A part is a
 * word of the search (a run of letters and digits, as pg_trgm splits text) with the character
 * before and after it: pg_trgm pads a word bounded by another character, so the part's pattern
 * yields exactly the trigrams the word yields in the whole search's pattern. A part that yields
 * none (a one- or two-letter word at an end) is left out: the index cannot read it alone.
 */
export function searchParts(search: string): string[] {
  const parts: string[] = [];
  for (const m of search.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = m.index;
    const end = start + m[0].length;
    const padded = m[0].length + (start > 0 ? 2 : 0) + (end < search.length ? 1 : 0);
    if (padded >= 3) parts.push(search.slice(Math.max(0, start - 1), end + 1));
  }
  return [...new Set(parts)];
}

/** A part found in more than this share of the sampled entries costs the index more than it narrows. */
export const COMMON_SHARE = 0.1;

/**
 * Which parts the count's index condition keeps, given how many of `sampled` entries each part was
 * found in: those found in at most COMMON_SHARE of them; if every part is that common, the rarest
 * (the longest of equals). Answers null when every part is kept (the whole search reads as well).
 */
export function rareParts(parts: readonly string[], hits: readonly number[], sampled: number): string[] | null {
  const rare = parts.filter((_, i) => (hits[i] ?? 0) <= sampled * COMMON_SHARE);
  if (rare.length === parts.length) return null;
  if (rare.length > 0) return rare;
  const order = parts.map((part, i) => ({ part, hits: hits[i] ?? 0 }));
  order.sort((a, b) => a.hits - b.hits || b.part.length - a.part.length);
  return [order[0]!.part];
}
